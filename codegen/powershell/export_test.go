package powershell

// ParseFiles is parseFiles, for the external tests.
var ParseFiles = parseFiles
