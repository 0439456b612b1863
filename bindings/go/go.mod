module libfbe.org/fbe

go 1.19
