package io.wireadvisor.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A JSON node read strictly, with the path that leads to it: every accessor checks the type it
 * expects and, when the document is wrong, throws the reader's own exception naming that path
 * ({@code shapes[3].counts.executes}, {@code v[0]}) and what is wrong. The one way the profile,
 * capture and server-view readers read a tree; each supplies a {@link Failure} that turns a path
 * and a problem into its exception and message.
 *
 * @param <X> the exception the reader throws on a wrong document
 */
public final class StrictNode<X extends Exception> {
  /** Makes the reader's exception for the field at {@code path} ("" for the root). */
  public interface Failure<X extends Exception> {
    X at(String path, String problem);
  }

  private final JsonNode json;
  private final String path;
  private final Failure<X> failure;

  private StrictNode(JsonNode json, String path, Failure<X> failure) {
    this.json = json;
    this.path = path;
    this.failure = failure;
  }

  /** {@code json} found at {@code path} ("" for a document's root). */
  public static <X extends Exception> StrictNode<X> of(JsonNode json, String path, Failure<X> failure) {
    return new StrictNode<>(json, path, failure);
  }

  public JsonNode json() {
    return json;
  }

  /** The path of this node: {@code a.b[2].c}; "" for the root. */
  public String path() {
    return path;
  }

  /** The reader's exception for this node. */
  public X fail(String problem) {
    return failure.at(path, problem);
  }

  /** A node below this one (for a reader that walks a subtree itself). */
  public StrictNode<X> at(JsonNode child, String childPath) {
    return new StrictNode<>(child, childPath, failure);
  }

  private String child(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  public void requireObject() throws X {
    if (!json.isObject()) {
      throw fail("expected an object, got " + describe(json));
    }
  }

  /** True when this object has {@code name} and it is not JSON null. */
  public boolean has(String name) throws X {
    requireObject();
    return json.has(name) && !json.get(name).isNull();
  }

  /** The field {@code name}; missing or null is an error. */
  public StrictNode<X> field(String name) throws X {
    requireObject();
    JsonNode value = json.get(name);
    if (value == null || value.isNull()) {
      throw failure.at(child(name), "is missing");
    }
    return new StrictNode<>(value, child(name), failure);
  }

  /** The field {@code name}, or null when missing or JSON null. */
  public StrictNode<X> optional(String name) throws X {
    return has(name) ? field(name) : null;
  }

  /** Refuses any field of this object not among {@code names}. */
  public void allowOnly(String... names) throws X {
    requireObject();
    List<String> allowed = Arrays.asList(names);
    Iterator<String> it = json.fieldNames();
    while (it.hasNext()) {
      String name = it.next();
      if (!allowed.contains(name)) {
        throw failure.at(child(name), "unknown field (allowed here: " + allowed + ")");
      }
    }
  }

  public String string() throws X {
    if (!json.isTextual()) {
      throw fail("expected a string, got " + describe(json));
    }
    return json.textValue();
  }

  public boolean bool() throws X {
    if (!json.isBoolean()) {
      throw fail("expected true or false, got " + describe(json));
    }
    return json.booleanValue();
  }

  /** An integer that fits a long. */
  public long integer() throws X {
    if (!json.isIntegralNumber() || !json.canConvertToLong()) {
      throw fail("expected an integer, got " + describe(json));
    }
    return json.longValue();
  }

  public long nonNegative() throws X {
    if (!json.isIntegralNumber() || !json.canConvertToLong() || json.longValue() < 0) {
      throw fail("expected a non-negative integer, got " + describe(json));
    }
    return json.longValue();
  }

  /** Any JSON number. */
  public double number() throws X {
    if (!json.isNumber()) {
      throw fail("expected a number, got " + describe(json));
    }
    return json.doubleValue();
  }

  /** The optional string field {@code name}: null when missing or JSON null. */
  public String optionalString(String name) throws X {
    return has(name) ? field(name).string() : null;
  }

  /** The elements of an array, each with its path {@code path[i]}. */
  public List<StrictNode<X>> elements() throws X {
    if (!json.isArray()) {
      throw fail("expected an array, got " + describe(json));
    }
    List<StrictNode<X>> out = new ArrayList<>(json.size());
    for (int i = 0; i < json.size(); i++) {
      out.add(new StrictNode<>(json.get(i), path + "[" + i + "]", failure));
    }
    return out;
  }

  public List<String> strings() throws X {
    List<String> out = new ArrayList<>();
    for (StrictNode<X> n : elements()) {
      out.add(n.string());
    }
    return out;
  }

  /** The fields of an object, in document order. */
  public List<Map.Entry<String, StrictNode<X>>> fields() throws X {
    requireObject();
    List<Map.Entry<String, StrictNode<X>>> out = new ArrayList<>(json.size());
    Iterator<Map.Entry<String, JsonNode>> it = json.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      out.add(new AbstractMap.SimpleImmutableEntry<>(
          e.getKey(), new StrictNode<>(e.getValue(), child(e.getKey()), failure)));
    }
    return out;
  }

  /** {@code name} as a constant of {@code type}; an unknown name is this node's error. */
  public <E extends Enum<E>> E enumValue(Class<E> type, String name) throws X {
    try {
      return Enum.valueOf(type, name);
    } catch (IllegalArgumentException e) {
      throw fail("unknown " + type.getSimpleName() + " \"" + name + "\" (expected one of "
          + Arrays.toString(type.getEnumConstants()) + ")");
    }
  }

  /** The node's type and its first 40 characters, for a message. */
  public static String describe(JsonNode n) {
    String text = n.toString();
    if (text.length() > 40) {
      text = text.substring(0, 37) + "...";
    }
    return n.getNodeType().name().toLowerCase(Locale.ROOT) + " " + text;
  }
}
