package io.wireadvisor.capture;

import java.util.Objects;

/**
 * One parameter value of a captured statement: its type and its text, or, when masked, its type
 * and length only.
 */
public final class CaptureValue {
  /** The value's type, as a JDBC setter would take it. */
  public enum Type {
    NULL("null"),
    NUMBER("number"),
    STRING("string"),
    /** Bytes, written as base64. */
    BYTES("bytes"),
    DATE("date"),
    TIME("time"),
    DATETIME("datetime");

    private final String jsonName;

    Type(String jsonName) {
      this.jsonName = jsonName;
    }

    public String jsonName() {
      return jsonName;
    }

    /** The type of a JSON name, or null. */
    public static Type fromJson(String name) {
      for (Type t : values()) {
        if (t.jsonName.equals(name)) {
          return t;
        }
      }
      return null;
    }
  }

  public static final CaptureValue NULL = new CaptureValue(Type.NULL, null, 0);

  private final Type type;
  private final String text;
  private final int length;

  private CaptureValue(Type type, String text, int length) {
    this.type = Objects.requireNonNull(type, "type");
    this.text = text;
    this.length = length;
  }

  /** A value of {@code type} with its text (decimal digits, the string, base64, ISO date/time). */
  public static CaptureValue of(Type type, String text) {
    if (type == Type.NULL) {
      return NULL;
    }
    return new CaptureValue(type, Objects.requireNonNull(text, "text"), text.length());
  }

  /** A masked value: only its type and length are kept. */
  public static CaptureValue masked(Type type, int length) {
    if (type == Type.NULL) {
      return NULL;
    }
    return new CaptureValue(type, null, Math.max(0, length));
  }

  public Type type() {
    return type;
  }

  /** The value's text, or null when masked (or NULL). */
  public String text() {
    return text;
  }

  /** True when the value was masked at capture. */
  public boolean isMasked() {
    return type != Type.NULL && text == null;
  }

  /** The length of the text (kept for masked values, to generate one of the same size). */
  public int length() {
    return length;
  }

  /** This value with its text removed. */
  public CaptureValue mask() {
    return isMasked() || type == Type.NULL ? this : masked(type, length);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof CaptureValue)) {
      return false;
    }
    CaptureValue v = (CaptureValue) o;
    return type == v.type && length == v.length && Objects.equals(text, v.text);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, text, length);
  }

  @Override
  public String toString() {
    return type == Type.NULL ? "NULL" : isMasked() ? type.jsonName + "(masked, " + length + ")" : type.jsonName + ":" + text;
  }
}
