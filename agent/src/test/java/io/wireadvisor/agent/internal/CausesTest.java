package io.wireadvisor.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CausesTest {
  @Test
  void outsideAnyCallTheCauseIsTheApplication() {
    assertThat(Causes.current()).isEqualTo("application");
  }

  @Test
  void innermostDriverCallWinsAndIsRestored() {
    int outer = Causes.enterDriver(Causes.CONNECT);
    assertThat(Causes.inConnect()).isTrue();
    int inner = Causes.enterDriver(Causes.LOAD_SERVER_VARIABLES);
    assertThat(Causes.current()).isEqualTo("loadServerVariables");
    Causes.exitDriver(inner);
    assertThat(Causes.current()).isEqualTo("connect");
    Causes.exitDriver(outer);
    assertThat(Causes.current()).isEqualTo("application");
    assertThat(Causes.inConnect()).isFalse();
  }

  @Test
  void poolOperationWrapsDriverCalls() {
    int pool = Causes.enterPool(Causes.HIKARI_RESET);
    assertThat(Causes.current()).isEqualTo("hikari.reset");
    int nestedPool = Causes.enterPool(Causes.HIKARI_VALIDATION);
    assertThat(Causes.current()).as("outermost pool operation kept").isEqualTo("hikari.reset");
    int d = Causes.enterDriver(Causes.SET_AUTO_COMMIT);
    assertThat(Causes.current()).isEqualTo("hikari.reset:setAutoCommit");
    Causes.exitDriver(d);
    Causes.exitPool(nestedPool);
    assertThat(Causes.current()).isEqualTo("hikari.reset");
    Causes.exitPool(pool);
    assertThat(Causes.current()).isEqualTo("application");
  }

  @Test
  void causesArePerThread() throws Exception {
    int d = Causes.enterDriver(Causes.IS_READ_ONLY);
    String[] other = new String[1];
    Thread t = new Thread(() -> other[0] = Causes.current());
    t.start();
    t.join();
    assertThat(other[0]).isEqualTo("application");
    assertThat(Causes.current()).isEqualTo("isReadOnly");
    Causes.exitDriver(d);
  }

  @Test
  void aBorrowCloseIsTakenOnceAndLeavesTheCausesAlone() {
    assertThat(Causes.takeBorrowClose()).as("outside close").isFalse();
    int previous = Causes.enterBorrowClose();
    assertThat(Causes.current()).isEqualTo("application");
    assertThat(Causes.takeBorrowClose()).isTrue();
    assertThat(Causes.takeBorrowClose()).as("once per close").isFalse();
    Causes.exitBorrowClose(previous);
    assertThat(Causes.takeBorrowClose()).isFalse();
  }
}
