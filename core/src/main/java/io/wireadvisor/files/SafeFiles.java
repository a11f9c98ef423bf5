package io.wireadvisor.files;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Writes the collectors' files (profile, report, capture) so that they can neither be read by other users nor
 * be redirected by a planted link: the bytes go to a fresh file in the target's directory,
 * created exclusively ({@code CREATE_NEW}, {@code NOFOLLOW_LINKS}) with permissions 0600 where
 * the file system is POSIX, and that file is renamed onto the target. A rename replaces a
 * symbolic link at the target path by the new file; it never writes through it, so the link's
 * target stays untouched.
 */
public final class SafeFiles {
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Writes the file's content; called once with a stream that must not be closed. */
  public interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  private SafeFiles() {}

  /** Replaces {@code target} with what {@code content} writes, as described above. */
  public static void write(Path target, Content content) throws IOException {
    Path file = target.toAbsolutePath();
    Path dir = file.getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Path tmp = createPrivate(dir, file.getFileName().toString());
    try {
      try (SeekableByteChannel ch = Files.newByteChannel(tmp, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
          OutputStream out = Channels.newOutputStream(ch)) {
        content.writeTo(out);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * Creates {@code target} as a new file, 0600 on POSIX, never following a link and never
   * replacing an existing file, and opens it for writing: for files written over time (a
   * capture), where write-then-rename cannot be used.
   *
   * @throws FileAlreadyExistsException when anything (a file, a link) is at {@code target}
   */
  public static OutputStream createNew(Path target) throws IOException {
    Path file = target.toAbsolutePath();
    Path dir = file.getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    boolean posix = Files.getFileStore(dir).supportsFileAttributeView("posix");
    Set<OpenOption> options =
        new HashSet<OpenOption>(
            Arrays.asList(
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
    SeekableByteChannel ch = Files.newByteChannel(file, options, privateAttributes(posix));
    if (posix) {
      // Past the umask, on this very file: never through a link swapped in after the create.
      Files.getFileAttributeView(file, java.nio.file.attribute.PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .setPermissions(PosixFilePermissions.fromString("rw-------"));
    }
    return Channels.newOutputStream(ch);
  }

  private static FileAttribute<?>[] privateAttributes(boolean posix) {
    return posix
        ? new FileAttribute<?>[] {
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
        }
        : new FileAttribute<?>[0];
  }

  /** A new, empty file {@code .<name>.<random>.tmp} in {@code dir}, 0600 on POSIX. */
  static Path createPrivate(Path dir, String name) throws IOException {
    boolean posix = Files.getFileStore(dir).supportsFileAttributeView("posix");
    Set<OpenOption> options =
        new HashSet<OpenOption>(
            Arrays.asList(
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
    FileAttribute<?>[] attrs = privateAttributes(posix);
    for (int attempt = 0; ; attempt++) {
      Path tmp = dir.resolve("." + name + "." + Long.toHexString(RANDOM.nextLong()) + ".tmp");
      try {
        Files.newByteChannel(tmp, options, attrs).close();
        if (posix) {
          // The umask can only take bits away; set them exactly in case a default ACL added some.
          Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
        }
        return tmp;
      } catch (FileAlreadyExistsException e) {
        if (attempt >= 10) {
          throw e;
        }
      }
    }
  }
}
