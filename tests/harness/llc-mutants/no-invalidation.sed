# expect: transfers_between_llcs
# a store leaves the other LLCs' copies in place
s/^\t\t\t\*w = 0;$/\t\t\t;/
