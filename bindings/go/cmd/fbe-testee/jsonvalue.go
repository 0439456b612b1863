package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// object is a JSON object with its members in order (a map value's order is its wire
// order, which a Go map would lose).
type object struct {
	keys []string
	vals []any
}

// parseOrdered reads one JSON value for the native path: objects as *object, numbers as
// json.Number (their text: 64-bit integers stay exact), arrays as []any, and strings
// as the bytes a Go program would hold: a lone surrogate escape (\ud800) becomes its
// 3-byte (WTF-8) form, which is not UTF-8, where encoding/json would put U+FFFD.
func parseOrdered(raw []byte) (any, error) {
	p := &jsonParser{s: raw}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

type jsonParser struct {
	s []byte
	i int
}

func (p *jsonParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *jsonParser) fail() error { return fmt.Errorf("bad JSON at byte %d", p.i) }

func (p *jsonParser) value(depth int) (any, error) {
	if depth > 10000 {
		return nil, errors.New("JSON nested too deep")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, p.fail()
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		o := &object{}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return o, nil
		}
		for {
			p.space()
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, p.fail()
			}
			p.i++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			o.keys, o.vals = append(o.keys, k), append(o.vals, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return o, nil
			}
			return nil, p.fail()
		}
	case c == '[':
		p.i++
		list := []any{}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return list, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return list, nil
			}
			return nil, p.fail()
		}
	case c == '"':
		return p.str()
	case c == 't' || c == 'f' || c == 'n':
		for _, w := range []struct {
			text string
			v    any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if len(p.s)-p.i >= len(w.text) && string(p.s[p.i:p.i+len(w.text)]) == w.text {
				p.i += len(w.text)
				return w.v, nil
			}
		}
		return nil, p.fail()
	default:
		start := p.i
		for p.i < len(p.s) && (p.s[p.i] == '-' || p.s[p.i] == '+' || p.s[p.i] == '.' || p.s[p.i] == 'e' ||
			p.s[p.i] == 'E' || (p.s[p.i] >= '0' && p.s[p.i] <= '9')) {
			p.i++
		}
		if start == p.i {
			return nil, p.fail()
		}
		return json.Number(p.s[start:p.i]), nil
	}
}

func (p *jsonParser) hex4() (rune, bool) {
	if len(p.s)-p.i < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.s[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(v), true
}

func (p *jsonParser) str() (string, error) {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", p.fail()
	}
	p.i++
	var out []byte
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(out), nil
		case c == '\\':
			p.i++
			if p.i >= len(p.s) {
				return "", p.fail()
			}
			e := p.s[p.i]
			p.i++
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", p.fail()
				}
				if r >= 0xD800 && r < 0xDC00 && len(p.s)-p.i >= 6 && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					if lo, ok := p.hex4(); ok && lo >= 0xDC00 && lo < 0xE000 {
						out = utf8.AppendRune(out, 0x10000+(r-0xD800)<<10+(lo-0xDC00))
						continue
					}
					p.i = save
				}
				if r >= 0xD800 && r < 0xE000 { // a lone surrogate: its 3 bytes, as they are
					out = append(out, byte(0xE0|r>>12), byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
				} else {
					out = utf8.AppendRune(out, r)
				}
			default:
				return "", p.fail()
			}
		default:
			out = append(out, c)
			p.i++
		}
	}
	return "", p.fail()
}
