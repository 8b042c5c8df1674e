# expect: transfers_between_llcs
# a transfer counted in for the LLC that gives the line, out for the one
# that takes it
s/^\t\t\tcount(&llc\[o\], user, XOUT);$/\t\t\tcount(\&llc[o], user, XIN);/
s/^\t\t\tcount(c, user, XIN);$/\t\t\tcount(c, user, XOUT);/
