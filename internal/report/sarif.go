package report

import (
	"errors"
	"io"

	"github.com/dslint/dslint/internal/finding"
)

func writeSARIF(w io.Writer, res *finding.Result) error {
	return errors.New("sarif: not implemented yet")
}
