# expect: transfers_between_llcs
# a store to a shared line (an upgrade) counted as a transfer
s/^\t\t\*hit |= EXCL;$/\t\t*hit |= EXCL;\n\t\tcount(c, user, XIN);/
