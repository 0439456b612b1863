package org.libfbe;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A decimal negative zero ("-0.00"): FBE's decimal keeps the sign of zero (its wire
 * form has a sign bit) and BigDecimal does not, so decode gives this subclass for it,
 * and encode writes the sign back. It compares equal to zero like any BigDecimal zero;
 * only its text keeps the minus. {@link #of} makes one.
 */
public final class NegativeZero extends BigDecimal {
  private static final long serialVersionUID = 1L;

  private NegativeZero(int scale) {
    super(BigInteger.ZERO, scale);
  }

  /** A negative zero with this scale (digits after the point). */
  public static NegativeZero of(int scale) {
    return new NegativeZero(scale);
  }

  /** The decimal of this text; "-0", "-0.00", "-0E+3" (a zero written with '-') give a NegativeZero. */
  static BigDecimal parse(String text) {
    BigDecimal d = new BigDecimal(text);
    return d.signum() == 0 && text.startsWith("-") ? new NegativeZero(d.scale()) : d;
  }

  @Override
  public String toString() {
    return "-" + super.toString();
  }

  @Override
  public String toPlainString() {
    return "-" + super.toPlainString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NegativeZero && ((NegativeZero) o).scale() == scale();
  }

  @Override
  public int hashCode() {
    return ~super.hashCode();
  }
}
