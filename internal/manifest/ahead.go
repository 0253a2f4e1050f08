package manifest

import (
	"fmt"
	"iter"
	"runtime"
	"runtime/debug"
)

// ahead runs do on each job on every core, a few jobs ahead of the
// consumer, and yields each job with its result in the jobs' order. At
// most GOMAXPROCS+1 results wait for the consumer, so memory follows the
// few parts in flight, not the input. A panic in do is handed over too,
// raised where the consumer can recover it. jobs is iterated on a
// goroutine of its own: reading the input there overlaps with parsing.
func ahead[J, R any](jobs iter.Seq[J], do func(J) R) iter.Seq2[J, R] {
	return func(yield func(J, R) bool) {
		type result struct {
			job   J
			r     R
			panic any
		}
		pending := make(chan chan result, runtime.GOMAXPROCS(0)+1)
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			defer close(pending)
			for job := range jobs {
				done := make(chan result, 1)
				select {
				case pending <- done:
				case <-stop:
					return
				}
				go func() {
					res := result{job: job}
					defer func() {
						if p := recover(); p != nil {
							res.panic = fmt.Sprintf("%v\n%s", p, debug.Stack())
						}
						done <- res
					}()
					res.r = do(job)
				}()
			}
		}()
		for done := range pending {
			res := <-done
			if res.panic != nil {
				panic(res.panic)
			}
			if !yield(res.job, res.r) {
				return
			}
		}
	}
}

// part is a run of whole documents of a file, and the line it starts on;
// or a document refused unread (refused, text nil).
type part struct {
	text    []byte
	line    int
	refused *Error
}

// parse parses the part, recording at most errorsLeft errors, with its
// "# Source:" comments, at file-wide positions.
func (p part) parse(name string, errorsLeft int) *File {
	if p.refused != nil {
		f := &File{Name: name, Line: p.line, errorsLeft: errorsLeft}
		if !f.stopAt(p.line) {
			f.fail(*p.refused)
		}
		return f
	}
	f := parse(name, p.text, errorsLeft)
	f.Helm = findHelmTemplates(f.Data)
	f.shift(p.line - 1)
	return f
}

// parseParts parses the parts of a file named name ahead on every core and
// yields them in order, each as parsing them one after the other would:
// the parts share the file's MaxSyntaxErrors, and past them the rest is not
// read. A part is parsed with all of them; the rare part that has more
// errors than the parts before it left is parsed again, with those left.
func parseParts(name string, parts iter.Seq[part]) iter.Seq[*File] {
	parse := func(p part, errorsLeft int) *File { return p.parse(name, errorsLeft) }
	return func(yield func(*File) bool) {
		errorsLeft := MaxSyntaxErrors
		for p, f := range ahead(parts, func(p part) *File { return parse(p, MaxSyntaxErrors) }) {
			if MaxSyntaxErrors-f.errorsLeft >= errorsLeft {
				f = parse(p, errorsLeft)
			}
			errorsLeft = f.errorsLeft
			if !yield(f) || f.stopped {
				return
			}
		}
	}
}
