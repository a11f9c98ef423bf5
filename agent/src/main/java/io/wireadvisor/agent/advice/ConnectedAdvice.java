package io.wireadvisor.agent.advice;

import com.mysql.cj.conf.RuntimeProperty;
import com.mysql.cj.jdbc.ConnectionImpl;
import com.mysql.cj.jdbc.JdbcPropertySet;
import com.mysql.cj.protocol.ServerSession;
import io.wireadvisor.agent.Hooks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined at the end of {@code ConnectionImpl(HostInfo)}: the connection is set up, so its
 * effective properties, the server's version and isolation are known from driver state (read
 * locally; nothing is sent).
 */
public final class ConnectedAdvice {
  private ConnectedAdvice() {}

  @Advice.OnMethodExit(suppress = Throwable.class)
  static void exit(@Advice.This Object self) {
    ConnectionImpl c = (ConnectionImpl) self;
    JdbcPropertySet ps = c.getPropertySet();
    String[] names = Hooks.PROPERTY_NAMES;
    String[] values = new String[names.length];
    for (int i = 0; i < names.length; i++) {
      try {
        RuntimeProperty<?> p = ps.getProperty(names[i]);
        values[i] = p == null ? null : p.getStringValue();
      } catch (Throwable unknownInThisVersion) {
        values[i] = null;
      }
    }
    ServerSession ss = c.getSession().getServerSession();
    String isolation = ss.getServerVariable("transaction_isolation");
    if (isolation == null) {
      isolation = ss.getServerVariable("tx_isolation");
    }
    String version = ss.getServerVariable("version");
    if (version == null) {
      version = String.valueOf(ss.getServerVersion());
    }
    Hooks.connected(
        c.getSession().getProtocol(),
        Hooks.driverVersion(self.getClass().getClassLoader()), version, isolation, c.getURL(), values);
    Hooks.sqlModeAtConnect(c.getSession().getProtocol(), ss.getServerVariable("sql_mode"));
  }
}
