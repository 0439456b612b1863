package org.libfbe;

import org.libfbe.internal.Walk;

/**
 * Resource limits against hostile input, taken by {@link StructType#decode decode},
 * {@link StructType#decodeTrusted decodeTrusted}, {@link StructType#verify verify},
 * {@link StructType#isValid isValid}, {@link StructType#fromJson fromJson} and
 * {@link Schema#receiver receivers} (for every frame). An immutable value: start from
 * {@link #DEFAULT} and lower what you need,
 * {@code Limits.DEFAULT.withMaxDepth(64).withMaxMemory(1 << 20)}. A member of 0 is the
 * core's default: depth 256, model (frame, JSON text) size 1 GiB, memory budget 16 x the
 * input + 1 MiB. Crossing a limit throws FbeException LIMIT naming it ("decoding needs
 * more than the memory budget of N bytes (max_memory)").
 *
 * <p>Every {@code with*} hands the value to the core's rule ({@code fbe_limits_set}), so
 * names, ranges and texts are the same in every language: a value out of range throws
 * FbeException RANGE ("max_depth must be 0 (the default) or 1..256, not 1000"), an
 * unknown name ARGUMENT.
 */
public final class Limits {
  /** The core's defaults (every member 0). */
  public static final Limits DEFAULT = new Limits(new long[3]);

  /** max_depth, max_model_size, max_memory: as the core set them. */
  private final long[] values;

  private Limits(long[] values) {
    this.values = values;
  }

  /** Nesting through optionals and collections: 1..256, 0 = the default (256). */
  public Limits withMaxDepth(long value) {
    return with("max_depth", value);
  }

  /** The largest model, frame or JSON text in bytes: 1..2^32-1, 0 = the default (1 GiB). */
  public Limits withMaxModelSize(long value) {
    return with("max_model_size", value);
  }

  /**
   * The bytes one call may cost (what the core allocates for the value plus 8 per value),
   * 0 = the default (16 x the input + 1 MiB).
   */
  public Limits withMaxMemory(long value) {
    return with("max_memory", value);
  }

  /**
   * A copy with one limit set by the core's name ("max_depth", "max_model_size",
   * "max_memory", or their camelCase "maxDepth", ...).
   *
   * @throws FbeException RANGE for a value out of range, ARGUMENT for an unknown name
   */
  public Limits with(String name, long value) {
    if (name == null) throw new FbeException(Status.ARGUMENT, "the limit's name is null");
    long[] copy = values.clone();
    Walk.limitsSet(copy, name, value);
    return new Limits(copy);
  }

  public long maxDepth() {
    return values[0];
  }

  public long maxModelSize() {
    return values[1];
  }

  public long maxMemory() {
    return values[2];
  }

  /** The limits of a call: not null. */
  static Limits of(Limits limits) {
    if (limits == null) throw new FbeException(Status.ARGUMENT, "limits is null (use Limits.DEFAULT)");
    return limits;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Limits && java.util.Arrays.equals(values, ((Limits) o).values);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return "Limits(maxDepth=" + values[0] + ", maxModelSize=" + values[1] + ", maxMemory=" + values[2] + ")";
  }
}
