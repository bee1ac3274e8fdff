package main

// suites are the benchmark runs of `make bench`, each with the ratios the
// issues set targets for.
var suites = []suite{}
