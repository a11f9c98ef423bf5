package io.wireadvisor.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ConnectionMetric;
import io.wireadvisor.profile.RecorderSettings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectionTableTest {
  @Test
  void eachConnectionHasOneStateUntilRemoved() {
    ConnectionTable table = new ConnectionTable();
    List<Object> conns = new ArrayList<>();
    List<ConnState> states = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      Object c = new Object();
      conns.add(c);
      states.add(table.getOrCreate(c));
    }
    for (int i = 0; i < conns.size(); i++) {
      assertThat(table.get(conns.get(i))).isSameAs(states.get(i));
      assertThat(table.getOrCreate(conns.get(i))).isSameAs(states.get(i));
    }
    assertThat(table.size()).isEqualTo(1000);
    for (int i = 0; i < conns.size(); i += 2) {
      assertThat(table.remove(conns.get(i))).isSameAs(states.get(i));
    }
    assertThat(table.size()).isEqualTo(500);
    for (int i = 0; i < conns.size(); i++) {
      assertThat(table.get(conns.get(i))).isSameAs(i % 2 == 0 ? null : states.get(i));
    }
    assertThat(table.remove(new Object())).isNull();
  }

  @Test
  void removingEndsTheConnectionInTheRecorder() {
    Window w = new Window(RecorderSettings.defaults());
    ConnectionTable table = new ConnectionTable();
    Object c = new Object();
    table.getOrCreate(c).sessionIn(w).connection().command();
    assertThat(w.recorder.snapshot().connections().connections()).isEqualTo(1);
    table.remove(c);
    // Closed connections stay counted in the window, now with their final values.
    assertThat(w.recorder.snapshot().connections().connections()).isEqualTo(1);
    assertThat(table.get(c)).isNull();
  }

  @Test
  void aResetWindowStartsTheConnectionAfresh() {
    Window first = new Window(RecorderSettings.defaults());
    Window second = new Window(RecorderSettings.defaults());
    ConnState s = new ConnectionTable().getOrCreate(new Object());
    var h1 = s.sessionIn(first).connection();
    assertThat(s.sessionIn(first).connection()).isSameAs(h1);
    var h2 = s.sessionIn(second).connection();
    assertThat(h2).isNotSameAs(h1);
    assertThat(second.recorder.snapshot().connections().connections()).isEqualTo(1);
  }

  @Test
  void aConnectionClosedWithoutQuitEndsNowAndStaysClosed() {
    Window w = new Window(RecorderSettings.defaults());
    ConnectionTable table = new ConnectionTable();
    Object aborted = new Object();
    Object other = new Object();
    ConnState s = table.getOrCreate(aborted);
    var h = s.sessionIn(w).connection();
    h.command();
    table.getOrCreate(other).sessionIn(w).connection().command();
    assertThat(table.size()).isEqualTo(2);

    assertThat(table.markClosed(aborted)).isSameAs(s);
    assertThat(s.closed).isTrue();
    assertThat(table.size()).as("no longer open").isEqualTo(1);
    assertThat(table.markClosed(aborted)).as("once").isNull();
    assertThat(table.markClosed(new Object())).as("untracked").isNull();
    // Kept (closed), so that a late command finds it rather than creating a new open one.
    assertThat(table.getOrCreate(aborted)).isSameAs(s);
    java.util.List<ConnState> open = new ArrayList<>();
    table.forEach(open::add);
    assertThat(open).hasSize(1).doesNotContain(s);

    // Its values were taken at the close: a late command on its handle changes nothing.
    h.command();
    var commands = w.recorder.snapshot().connections().distribution(ConnectionMetric.COMMANDS);
    assertThat(commands.count()).isEqualTo(2);
    assertThat(commands.sum()).isEqualTo(2);
  }

  @Test
  void aReconnectedProtocolIsANewConnectionWithTheOldDescription() {
    Window w = new Window(RecorderSettings.defaults());
    ConnectionTable table = new ConnectionTable();
    Object protocol = new Object();
    ConnState s = table.getOrCreate(protocol);
    s.sessionIn(w).connection().command();
    s.description =
        new ConnDescription("9.5.0", "11.4.5", "REPEATABLE-READ", "jdbc:mysql://h/db", new java.util.TreeMap<>());
    table.markClosed(protocol);

    ConnState fresh = table.reopen(protocol);
    assertThat(fresh).isNotSameAs(s);
    assertThat(fresh.closed).isFalse();
    assertThat(fresh.description).isSameAs(s.description);
    assertThat(table.get(protocol)).isSameAs(fresh);
    assertThat(table.size()).isEqualTo(1);
    fresh.sessionIn(w).connection().command();
    assertThat(w.recorder.snapshot().connections().connections()).isEqualTo(2);
  }
}
