package classify

// Commands is the parse every analysis of this package reads, exported
// for the differential spec.
var Commands = commands
