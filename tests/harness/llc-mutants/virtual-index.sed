# expect: shared_through_two_mappings
# lines indexed by virtual address (audit-v3 T2), both parts of an access
s/^\tpa = qemu_plugin_hwaddr_phys_addr(hw);$/\tpa = vaddr;/
s/^\t\t\tpa = qemu_plugin_hwaddr_phys_addr(hw);$/\t\t\tpa = vaddr + room;/
