package org.libfbe;

/** The two wire models (FORMAT.md 5 and 6). */
public enum Model {
  /** Versioned: sizes, type ids and relative pointers; readers of other versions cope. */
  STANDARD,
  /** Compact: everything inline, no versioning. */
  FINAL
}
