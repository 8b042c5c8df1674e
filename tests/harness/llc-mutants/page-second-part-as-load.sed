# expect: access_across_a_page
# the second part of an access across a page taken as a load
s/^\t\t\t\taccess_line(vcpu_llc\[vcpu\], l + 1, store, vaddr < USER_TOP);$/\t\t\t\taccess_line(vcpu_llc[vcpu], l + 1, false, vaddr < USER_TOP);/
