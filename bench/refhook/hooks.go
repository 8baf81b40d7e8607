package main

import "github.com/hookify/hookify/ir"

// hooks are the compiled hooks of one project. This file has none: bench/run.sh
// replaces it with the output of refhook/gen through go build -overlay.
var hooks []*ir.Hook
