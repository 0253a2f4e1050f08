module github.com/dslint/dslint

go 1.26
