# expect: transfers_between_llcs
# an invalidation counted for the LLC that stores, not the one that loses
# its copy
s/^\t\t\tcount(&llc\[o\], user, INVAL);$/\t\t\tcount(c, user, INVAL);/
