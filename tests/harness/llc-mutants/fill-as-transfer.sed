# expect: transfers_between_llcs
# every fill from memory also counted as a transfer in (audit-v3 T2)
s/^\t\tcount(c, user, FILL);$/\t\t{ count(c, user, FILL); count(c, user, XIN); }/
