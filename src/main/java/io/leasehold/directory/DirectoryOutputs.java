package io.leasehold.directory;

import io.leasehold.core.Generation;
import io.leasehold.core.ItemId;
import io.leasehold.spool.AttemptOutput;
import io.leasehold.spool.AttemptOutputJson;
import io.leasehold.spool.AttemptOutputs;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.UnfitFileException;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Attempts' outputs in {@code outputs/<id>/<attempt>}, each written in tmp/ and renamed in whole, so a reader
 * sees an old output or a new one. Not forced to disk: an output is a clue for an operator, and a sync per
 * attempt would slow every item; a crash may lose the latest ones.
 */
public final class DirectoryOutputs implements AttemptOutputs {

    private final SpoolLayout layout;

    public DirectoryOutputs(SpoolLayout layout) {
        this.layout = layout;
    }

    @Override
    public void keep(String id, AttemptOutput output) throws IOException {
        Path folder = folderFor(ItemId.require(id));
        int n = output.attempt();
        Path tmp = layout.file(SpoolFolder.TMP, "outputs~" + id + "~" + n + "~" + Generation.first().nonce());
        try {
            Files.write(tmp, AttemptOutputJson.encode(output), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Files.move(tmp, folder.resolve(Integer.toString(n)), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        for (String name : AttemptRecords.names(folder)) {
            int m = number(name);
            if (m > 0 && m <= n - KEPT) {
                Files.deleteIfExists(folder.resolve(name));
            }
        }
    }

    @Override
    public Optional<AttemptOutput> read(String id, int attempt) throws IOException {
        Path folder = layout.file(SpoolFolder.OUTPUTS, ItemId.require(id));
        String name = "outputs/" + id + "/" + attempt;
        if (Files.isSymbolicLink(folder)) {
            throw new ItemStore.UnfitOutputException(name + ": outputs/" + id + " is a symbolic link, never followed;"
                    + " remove it");
        }
        byte[] json;
        try {
            json = WrittenWhole.read(folder.resolve(Integer.toString(attempt)), AttemptOutputJson.MAX_BYTES, name);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return Optional.empty();
        } catch (UnfitFileException e) {
            throw new ItemStore.UnfitOutputException(e.getMessage() + "; remove it");
        }
        try {
            return Optional.of(AttemptOutputJson.decode(json));
        } catch (IOException e) {
            throw new ItemStore.UnfitOutputException(name + " is not an output leasehold wrote; remove it");
        }
    }

    @Override
    public void forget(String id) throws IOException {
        Path folder = layout.file(SpoolFolder.OUTPUTS, ItemId.require(id));
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            return; // none, or junk under that name, which is left alone
        }
        for (String name : AttemptRecords.names(folder)) {
            try {
                Files.deleteIfExists(folder.resolve(name)); // a link is removed, never followed
            } catch (DirectoryNotEmptyException e) {
                // junk (a folder with files): left alone, as the folder holding it is
            }
        }
        try {
            Files.deleteIfExists(folder);
        } catch (DirectoryNotEmptyException e) {
            // junk left in it, or an output kept meanwhile: swept once the item is gone
        }
    }

    /** The item's folder, made when missing; anything but a directory under its name refuses the output. */
    private Path folderFor(String id) throws IOException {
        Path folder = layout.file(SpoolFolder.OUTPUTS, id);
        for (int look = 0; look < 3; look++) {
            // One look tells both whether it is there and what it is: two looks could see nothing, then the
            // folder another holder made between them, and call it junk.
            Optional<FileFacts> there = FileFacts.of(folder);
            if (there.isPresent()) {
                if (there.get().directory()) {
                    return folder;
                }
                break;
            }
            Path parent = layout.folder(SpoolFolder.OUTPUTS);
            if (!Files.exists(parent, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(parent); // a spool made by an older version has no such folder yet
            }
            SpoolLayout.requireOwnDirectory(parent);
            try {
                Files.createDirectory(folder);
                return folder;
            } catch (FileAlreadyExistsException e) {
                // made by another attempt just now: look again
            }
        }
        throw new IOException("outputs/" + id + " is not a directory: the attempt's output cannot be kept (remove it)");
    }

    private static int number(String name) {
        return name.matches("[1-9][0-9]{0,8}") ? Integer.parseInt(name) : 0;
    }
}
