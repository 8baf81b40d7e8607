module github.com/hookify/hookify

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/yuin/goldmark v1.8.7
	go.yaml.in/yaml/v4 v4.0.0
)
