# expect: stream_twice_the_llc
# evictions not counted
s/^\tcount(c, user, EVICT);$/\t;/
