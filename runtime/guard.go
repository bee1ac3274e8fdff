package runtime

import "fmt"

// Panic is a panic recovered by Try or Guard: what was running and the
// value it panicked with. A caller that words its own message takes the
// value with errors.As:
//
//	var crash *runtime.Panic
//	if errors.As(err, &crash) { … crash.Value … }
type Panic struct {
	// What names the code that panicked, such as a tool method ("Call").
	What string
	// Value is the value passed to panic.
	Value any
}

// Error says what panicked and with which value: "panic in Call: boom".
func (p *Panic) Error() string {
	return fmt.Sprintf("panic in %s: %v", p.What, p.Value)
}

// Try calls fn and returns nil, or a *Panic naming what when fn panics.
// Results travel through fn's closure:
//
//	var res runtime.Result
//	var callErr error
//	crash := runtime.Try("Call", func() { res, callErr = t.Call(ctx, in, call) })
//
// Every call into code the runtime does not trust (tool methods, render
// methods, hooks) goes through Try or Guard, so no panic escapes it.
func Try(what string, fn func()) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &Panic{What: what, Value: v}
		}
	}()
	fn()
	return nil
}

// Guard calls fn and returns its result, or T's zero value and a *Panic
// naming what when fn panics. Where the zero value is the fail-closed
// answer (false, "", nil), callers may drop the error.
func Guard[T any](what string, fn func() T) (T, error) {
	var v T
	err := Try(what, func() { v = fn() })
	return v, err
}
