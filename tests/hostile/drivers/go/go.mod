module libfbe.org/fbe/hostile-driver

go 1.19

require libfbe.org/fbe v0.1.0

replace libfbe.org/fbe => ../../../../bindings/go
