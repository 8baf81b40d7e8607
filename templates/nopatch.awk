# nopatch.awk: what stands for patch.awk in the programs of hooks that read
# no patches (A unset): decode.awk calls these only when A is set.
function pat_init() {}
function pat_start(L) { return 0 }
function pat_read() {}
function pat_views() {}
