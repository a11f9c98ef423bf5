package io.wireadvisor.agent.internal;

import io.wireadvisor.profile.ProfileRecorder.ConnectionHandle;
import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import java.lang.ref.WeakReference;

/**
 * What the agent knows about one physical connection (one {@code NativeProtocol}), held weakly so
 * a connection the application abandons without closing does not stay reachable because of us.
 * Used by one thread at a time, like the connection itself.
 */
public final class ConnState extends WeakReference<Object> {
  public final StatementMap statements = new StatementMap();
  private final IdentitySet shapesSeen = new IdentitySet();
  private Window window;
  // Volatile: an abort on another thread closes it (end()).
  private volatile ConnectionHandle handle;
  /**
   * Whether this connection's configuration is (or will be) recorded. A connection first seen
   * while it connects is described by the constructor advice; one first seen otherwise was open
   * before the agent was attached and is described from its protocol object.
   */
  public boolean described;
  /**
   * The connection's configuration as it stands now (isolation updated by
   * {@code setTransactionIsolation}); null until the connection is described. Written by the
   * connection's thread, read by the snapshot thread too.
   */
  public volatile ConnDescription description;
  /**
   * Whether {@link #description} as it stands is registered as a source. Cleared when the isolation
   * changes; set again by the connection's next business statement (the hot path's only check).
   */
  public volatile boolean registered;
  /** Whether a business statement registered a description of this connection (in any window). */
  public volatile boolean ranStatements;
  /**
   * Set when the driver closed the connection without COM_QUIT (abort, forced close after a
   * failure), possibly from another thread. The state stays in the table so that a command still
   * in flight on the closed connection does not bring it back as a new open one.
   */
  public volatile boolean closed;

  ConnState(Object protocol, boolean lateAttach) {
    super(protocol);
    this.described = !lateAttach || Causes.inConnect();
  }

  /** This connection's handle in {@code current}; after a reset it starts afresh there. */
  public ConnectionHandle handleIn(Window current) {
    if (window != current) {
      ConnectionHandle old = handle;
      handle = current.recorder.openConnection();
      window = current;
      shapesSeen.clear();
      if (old != null) {
        // Its window is gone; closing only keeps the old recorder consistent.
        old.close();
      }
    }
    return handle;
  }

  /** Records that this connection used {@code shape}, telling the recorder only the first time. */
  public void used(ShapeHandle shape, ConnectionHandle h) {
    if (shapesSeen.add(shape.digest())) {
      h.used(shape);
    }
  }

  /** The connection ended (COM_QUIT sent, or found collected). Idempotent. */
  void end() {
    ConnectionHandle h = handle;
    if (h != null) {
      h.close();
    }
  }
}
