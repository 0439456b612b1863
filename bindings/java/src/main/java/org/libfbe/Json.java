package org.libfbe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader and writer for the testee protocol
 * (the library's own JSON goes through the core). Numbers keep their text, so 64-bit
 * integers pass through exactly. Objects are LinkedHashMaps, arrays ArrayLists.
 */
final class Json {
  /** A number, as written. */
  record Num(String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  /** JSON text inserted as it is by the writer. */
  record Raw(String text) {}

  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  static Object parse(String text) {
    Json p = new Json(text);
    p.ws();
    Object v = p.value();
    p.ws();
    if (p.i != text.length()) throw p.error("trailing characters");
    return v;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at offset " + i);
  }

  private void ws() {
    while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
  }

  private Object value() {
    if (i >= s.length()) throw error("unexpected end");
    char c = s.charAt(i);
    switch (c) {
      case '{': {
        i++;
        Map<String, Object> m = new LinkedHashMap<>();
        ws();
        if (peek('}')) return m;
        do {
          ws();
          if (i >= s.length() || s.charAt(i) != '"') throw error("expected a member name");
          String k = string();
          ws();
          expect(':');
          ws();
          m.put(k, value());
          ws();
        } while (peek(','));
        expect('}');
        return m;
      }
      case '[': {
        i++;
        List<Object> a = new ArrayList<>();
        ws();
        if (peek(']')) return a;
        do {
          ws();
          a.add(value());
          ws();
        } while (peek(','));
        expect(']');
        return a;
      }
      case '"':
        return string();
      default:
        if (s.startsWith("true", i)) {
          i += 4;
          return Boolean.TRUE;
        }
        if (s.startsWith("false", i)) {
          i += 5;
          return Boolean.FALSE;
        }
        if (s.startsWith("null", i)) {
          i += 4;
          return null;
        }
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
        if (start == i) throw error("unexpected character");
        return new Num(s.substring(start, i));
    }
  }

  private boolean peek(char c) {
    if (i < s.length() && s.charAt(i) == c) {
      i++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!peek(c)) throw error("expected '" + c + "'");
  }

  private String string() {
    i++; // the opening quote
    StringBuilder b = new StringBuilder();
    while (true) {
      if (i >= s.length()) throw error("unterminated string");
      char c = s.charAt(i++);
      if (c == '"') return b.toString();
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (i >= s.length()) throw error("unterminated string");
      char e = s.charAt(i++);
      switch (e) {
        case 'n': b.append('\n'); break;
        case 't': b.append('\t'); break;
        case 'r': b.append('\r'); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'u':
          if (i + 4 > s.length()) throw error("bad \\u escape");
          b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          i += 4;
          break;
        default: b.append(e);
      }
    }
  }

  static String write(Object v) {
    StringBuilder b = new StringBuilder();
    write(b, v);
    return b.toString();
  }

  static void write(StringBuilder b, Object v) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof Raw) {
      b.append(((Raw) v).text());
    } else if (v instanceof String) {
      quote(b, (String) v);
    } else if (v instanceof Map) {
      b.append('{');
      String sep = "";
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        b.append(sep);
        quote(b, String.valueOf(e.getKey()));
        b.append(':');
        write(b, e.getValue());
        sep = ",";
      }
      b.append('}');
    } else if (v instanceof List) {
      b.append('[');
      String sep = "";
      for (Object o : (List<?>) v) {
        b.append(sep);
        write(b, o);
        sep = ",";
      }
      b.append(']');
    } else {
      b.append(v); // Num, Boolean, Integer, Long
    }
  }

  static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20 || Character.isSurrogate(c)) b.append(String.format("\\u%04x", (int) c)); // a lone one survives
      else b.append(c);
    }
    b.append('"');
  }
}
