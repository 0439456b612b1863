/* swig/java.i: the JNI classes of the Java binding (package org.libfbe.internal).
 * SWIG wraps the coarse, language-neutral surface of fbe.i (schema loading, lookups,
 * introspection, status table); encode, decode and the other per-message calls are
 * hand-written C against JNI (bindings/java/native/: messages cross as a tape of
 * primitive slots, one call each), compiled into the same libfbejni and reached
 * through org.libfbe.internal.Walk.
 *
 * Differences from SWIG's Java defaults, and why:
 *   - no finalize() (deprecated for removal): org.libfbe.Schema owns the native schema
 *     explicitly (AutoCloseable, with a java.lang.ref.Cleaner backstop) and calls delete();
 *   - getCPtr is public, so the public API (another package) can hand the raw handles
 *     to Walk;
 *   - C enums become proper Java enums;
 *   - the JNI class loads libfbejni from the jar before its first native call. */
%module(jniclassname="FbeCoreJNI") FbeCore

%include <enums.swg>
%typemap(javafinalize) SWIGTYPE ""
SWIG_JAVABODY_PROXY(public, public, SWIGTYPE)
SWIG_JAVABODY_TYPEWRAPPER(public, public, public, SWIGTYPE)

%pragma(java) jniclasscode=%{
  static {
    NativeLibrary.load();
  }
%}

%include "fbe.i"
