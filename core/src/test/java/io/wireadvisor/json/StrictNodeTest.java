package io.wireadvisor.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrictNodeTest {
  /** A reader's own exception, carrying the path it was given. */
  static final class Wrong extends Exception {
    private static final long serialVersionUID = 1L;
    final String path;

    Wrong(String path, String problem) {
      super(path + " -> " + problem);
      this.path = path;
    }
  }

  enum Colour { RED, GREEN }

  private static StrictNode<Wrong> read(String json) throws Exception {
    return StrictNode.of(new ObjectMapper().readTree(json), "", Wrong::new);
  }

  private static Wrong wrong(ThrowingRead r) {
    try {
      r.run();
    } catch (Wrong w) {
      return w;
    } catch (Exception e) {
      throw new AssertionError("expected Wrong, got " + e, e);
    }
    throw new AssertionError("accepted");
  }

  interface ThrowingRead {
    void run() throws Exception;
  }

  @Test
  void readsWhatIsThere() throws Exception {
    StrictNode<Wrong> r = read("{\"a\":{\"b\":[1,2]},\"s\":\"x\",\"t\":true,\"n\":null,\"d\":1.5,\"l\":[\"p\",\"q\"]}");
    assertThat(r.field("a").field("b").elements().get(1).nonNegative()).isEqualTo(2);
    assertThat(r.field("a").field("b").elements().get(1).path()).isEqualTo("a.b[1]");
    assertThat(r.field("s").string()).isEqualTo("x");
    assertThat(r.field("t").bool()).isTrue();
    assertThat(r.has("n")).as("null is absent").isFalse();
    assertThat(r.optional("n")).isNull();
    assertThat(r.optionalString("zz")).isNull();
    assertThat(r.field("d").number()).isEqualTo(1.5);
    assertThat(r.field("l").strings()).containsExactly("p", "q");
    assertThat(r.fields()).extracting(Map.Entry::getKey).containsExactly("a", "s", "t", "n", "d", "l");
    assertThat(r.fields().get(0).getValue().path()).isEqualTo("a");
    assertThat(r.field("s").enumValue(Colour.class, "GREEN")).isEqualTo(Colour.GREEN);
  }

  @Test
  void everyWrongFieldIsNamedByItsPath() throws Exception {
    StrictNode<Wrong> r = read("{\"a\":{\"b\":[1,-2,\"x\"]},\"s\":5,\"t\":\"yes\",\"n\":null,"
        + "\"f\":1.5,\"long\":\"" + String.join("", java.util.Collections.nCopies(60, "y")) + "\"}");
    assertThat(wrong(() -> r.field("missing")).path).isEqualTo("missing");
    assertThat(wrong(() -> r.field("n")).getMessage()).isEqualTo("n -> is missing");
    assertThat(wrong(() -> r.field("a").field("b").elements().get(1).nonNegative()).path).isEqualTo("a.b[1]");
    assertThat(wrong(() -> r.field("a").field("b").elements().get(2).integer()).getMessage())
        .isEqualTo("a.b[2] -> expected an integer, got string \"x\"");
    assertThat(wrong(() -> r.field("s").string()).getMessage()).isEqualTo("s -> expected a string, got number 5");
    assertThat(wrong(() -> r.field("t").bool()).path).isEqualTo("t");
    assertThat(wrong(() -> r.field("f").integer()).path).isEqualTo("f");
    assertThat(wrong(() -> r.field("t").number()).path).isEqualTo("t");
    assertThat(wrong(() -> r.field("a").elements()).getMessage()).startsWith("a -> expected an array, got object");
    assertThat(wrong(() -> r.field("a").field("b").field("c")).getMessage()).startsWith("a.b -> expected an object");
    assertThat(wrong(() -> r.field("a").allowOnly("x")).getMessage())
        .isEqualTo("a.b -> unknown field (allowed here: [x])");
    assertThat(wrong(() -> r.field("s").enumValue(Colour.class, "BLUE")).getMessage())
        .isEqualTo("s -> unknown Colour \"BLUE\" (expected one of " + Arrays.toString(Colour.values()) + ")");
    assertThat(wrong(() -> r.field("long").integer()).getMessage()).as("a long value is cut").endsWith("...").hasSize("long -> expected an integer, got string ".length() + 40);
    assertThat(r.field("s").fail("custom").path).isEqualTo("s");
  }

  @Test
  void theRootHasAnEmptyPathAndChildrenHaveNoLeadingDot() throws Exception {
    StrictNode<Wrong> r = read("[{\"x\":1}]");
    assertThat(wrong(r::requireObject).path).isEmpty();
    assertThat(r.elements().get(0).field("x").path()).isEqualTo("[0].x");
    StrictNode<Wrong> line = StrictNode.of(new ObjectMapper().readTree("{\"k\":{\"v\":1}}"), "", Wrong::new);
    assertThat(line.field("k").field("v").path()).isEqualTo("k.v");
  }
}
