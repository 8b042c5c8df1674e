# expect: lru_in_one_set
# a hit does not make its line recently used: first in, first out
s/^\t\tc->stamp\[hit - c->tag\] = ++c->clock;$/\t\t;/
