# expect: transfers_between_llcs
# the 'all' space not counted for user accesses (audit-v3 T2)
s/^\tc->n\[ALL\]\[k\]++;$/\tif (!user)\n\t\tc->n[ALL][k]++;/
