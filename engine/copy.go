package engine

import (
	"reflect"
	"sync"
)

// DeepCopy returns a copy of v that shares no memory with it: pointers,
// slices, maps and interfaces are copied all the way down (nil stays nil,
// empty stays empty). Rulesets use it to honour the contract that Resolve
// never changes its input state; it is many times cheaper than a JSON round
// trip. Unexported fields are copied shallowly, and v must hold no cycles.
func DeepCopy[T any](v T) T {
	src := reflect.ValueOf(&v).Elem()
	dst := reflect.New(src.Type()).Elem()
	copyValue(dst, src)
	return dst.Interface().(T)
}

// copier copies src into dst, which is a settable zero value of its type.
type copier func(dst, src reflect.Value)

// copiers caches a copier per type; building one walks the type once.
var copiers sync.Map // reflect.Type -> copier

func copyValue(dst, src reflect.Value) { copierFor(src.Type())(dst, src) }

func copierFor(t reflect.Type) copier {
	if c, ok := copiers.Load(t); ok {
		return c.(copier)
	}
	// A placeholder breaks the recursion of self-referencing types; it
	// defers to the real copier once that is stored.
	var real copier
	copiers.Store(t, copier(func(dst, src reflect.Value) { real(dst, src) }))
	real = buildCopier(t)
	copiers.Store(t, real)
	return real
}

func setFlat(dst, src reflect.Value) { dst.Set(src) }

// isFlat reports whether a value of t holds no reference, so that a plain
// assignment copies it.
func isFlat(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return false
	case reflect.Array:
		return isFlat(t.Elem(), seen)
	case reflect.Struct:
		seen[t] = true
		defer delete(seen, t)
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() && !isFlat(t.Field(i).Type, seen) {
				return false
			}
		}
	}
	return true
}

// buildCopier builds the copier of t: a plain assignment for a flat type,
// else one that copies what t refers to.
func buildCopier(t reflect.Type) copier {
	if isFlat(t, map[reflect.Type]bool{}) {
		return setFlat
	}
	switch t.Kind() {
	case reflect.Pointer:
		return pointerCopier(t)
	case reflect.Slice:
		return sliceCopier(t)
	case reflect.Map:
		return mapCopier(t)
	case reflect.Interface:
		return copyInterface
	case reflect.Array:
		return arrayCopier(t)
	case reflect.Struct:
		return structCopier(t)
	}
	return setFlat
}

// pointerCopier copies a pointer of type t into a new value (nil stays
// nil).
func pointerCopier(t reflect.Type) copier {
	elem := t.Elem()
	return func(dst, src reflect.Value) {
		if src.IsNil() {
			return
		}
		n := reflect.New(elem)
		copierFor(elem)(n.Elem(), src.Elem())
		dst.Set(n)
	}
}

// sliceCopier copies a slice of type t into a new one (nil stays nil,
// empty stays empty).
func sliceCopier(t reflect.Type) copier {
	elem := t.Elem()
	flatElem := isFlat(elem, map[reflect.Type]bool{})
	return func(dst, src reflect.Value) {
		if src.IsNil() {
			return
		}
		n := reflect.MakeSlice(t, src.Len(), src.Len())
		if flatElem {
			reflect.Copy(n, src)
		} else {
			c := copierFor(elem)
			for i := 0; i < src.Len(); i++ {
				c(n.Index(i), src.Index(i))
			}
		}
		dst.Set(n)
	}
}

// mapCopier copies a map of type t, keys and values, into a new one (nil
// stays nil).
func mapCopier(t reflect.Type) copier {
	key, elem := t.Key(), t.Elem()
	return func(dst, src reflect.Value) {
		if src.IsNil() {
			return
		}
		n := reflect.MakeMapWithSize(t, src.Len())
		ck, ce := copierFor(key), copierFor(elem)
		it := src.MapRange()
		for it.Next() {
			k := reflect.New(key).Elem()
			ck(k, it.Key())
			v := reflect.New(elem).Elem()
			ce(v, it.Value())
			n.SetMapIndex(k, v)
		}
		dst.Set(n)
	}
}

// copyInterface copies the value an interface holds (nil stays nil).
func copyInterface(dst, src reflect.Value) {
	if src.IsNil() {
		return
	}
	e := src.Elem()
	n := reflect.New(e.Type()).Elem()
	copierFor(e.Type())(n, e)
	dst.Set(n)
}

// arrayCopier copies an array of type t element by element.
func arrayCopier(t reflect.Type) copier {
	elem := t.Elem()
	return func(dst, src reflect.Value) {
		c := copierFor(elem)
		for i := 0; i < src.Len(); i++ {
			c(dst.Index(i), src.Index(i))
		}
	}
}

// structCopier copies a struct of type t: all of it by assignment, then
// its exported fields that refer to anything, deeply.
func structCopier(t reflect.Type) copier {
	var deep []int
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.IsExported() && !isFlat(f.Type, map[reflect.Type]bool{}) {
			deep = append(deep, i)
		}
	}
	return func(dst, src reflect.Value) {
		dst.Set(src)
		for _, i := range deep {
			f := dst.Field(i)
			f.SetZero()
			copierFor(f.Type())(f, src.Field(i))
		}
	}
}
