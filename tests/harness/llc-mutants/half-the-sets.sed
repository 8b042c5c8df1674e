# expect: stream_half_the_llc
# half the sets: an LLC of half the size it reports
s/^\tsets = size \/ (line \* ways);$/\tsets = size \/ (line * ways) \/ 2;/
