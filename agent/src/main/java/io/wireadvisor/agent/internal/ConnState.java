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
  private ConnectionHandle handle;
  /** The source key this connection's properties were registered under, once known. */
  volatile boolean described;

  ConnState(Object protocol) {
    super(protocol);
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
