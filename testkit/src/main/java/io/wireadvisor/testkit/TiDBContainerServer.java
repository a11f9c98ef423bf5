package io.wireadvisor.testkit;

import java.sql.SQLException;
import org.testcontainers.tidb.TiDBContainer;
import org.testcontainers.utility.DockerImageName;

/** TiDB in a Docker container started by Testcontainers; stopped by {@link #close()}. */
final class TiDBContainerServer extends AbstractDatabaseServer {
  private static final int SQL_PORT = 4000;
  private static final int STATUS_PORT = 10080;

  private final TiDBContainer container;

  private TiDBContainerServer(TiDBContainer container) {
    super(
        "testcontainers",
        container.getHost(),
        container.getMappedPort(SQL_PORT),
        "root",
        "",
        "http://" + container.getHost() + ":" + container.getMappedPort(STATUS_PORT));
    this.container = container;
  }

  static TiDBContainerServer start() {
    TiDBContainer container =
        new TiDBContainer(DockerImageName.parse(TestVersions.TIDB_IMAGE).asCompatibleSubstituteFor("pingcap/tidb"));
    container.start();
    TiDBContainerServer server = new TiDBContainerServer(container);
    try {
      server.probe();
    } catch (SQLException e) {
      container.stop();
      throw new IllegalStateException("TiDB container " + TestVersions.TIDB_IMAGE + " started but refuses connections", e);
    }
    return server;
  }

  @Override
  public void close() {
    closeCounters();
    container.stop();
  }
}
