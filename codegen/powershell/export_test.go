package powershell

// ParseFiles is parseFiles, for the external tests.
var ParseFiles = parseFiles

// RandomPayload is randomPayload, for the external tests.
var RandomPayload = randomPayload

// DotNetMatcher is dotnetMatcher, for the external tests.
var DotNetMatcher = dotnetMatcher

// ParseSource is parseSource, for the external tests.
var ParseSource = parseSource
