# expect: stream_twice_the_llc
# a random victim instead of the least recently used
s/^\tcount(c, user, EVICT);$/\tv = rand() % ways;\n\tcount(c, user, EVICT);/
