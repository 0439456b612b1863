module libfbe.org/benchmarks

go 1.23

require (
	github.com/mus-format/mus-go v0.7.2
	google.golang.org/protobuf v1.36.12
	libfbe.org/fbe v0.0.0
)

require (
	github.com/mus-format/common-go v0.0.0-20251026152644-9f5ac6728d8a // indirect
	golang.org/x/exp v0.0.0-20230425010034-47ecfdc1ba53 // indirect
)

replace libfbe.org/fbe => ../../bindings/go
