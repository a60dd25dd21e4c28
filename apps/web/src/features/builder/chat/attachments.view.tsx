/*
 * Files in the composer (issue 18 item 3; SPEC §3 project store "pending files"): a paperclip
 * button (a file input), drop and paste on the composer, the pending files as chips (a thumbnail
 * for an image) with a remove button each, and the files a sent message carried. State and rules
 * live in PendingFilesStore; this file only renders and hands the browser's files over.
 *
 * Accessible names the end-to-end tests rely on: button "Attach files" (its input "Files to
 * attach"); list "Attached files", each item named for the file, with "Remove <name>"; a failed
 * file's words in role alert; under a sent message, list "Files in this message".
 */
import type { AttachmentRef } from '@kiln/domain';
import { FileText, LoaderCircle, Paperclip, X } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { type ClipboardEvent, type DragEvent, useRef } from 'react';
import { Tooltip } from '../../../ui/tooltip';
import type { ChatVm } from './chat.vm';
import { ACCEPTED_FILES } from './pending-files.store';

const filesOf = (list: FileList | null | undefined): File[] => (list ? Array.from(list) : []);

/** Drop and paste handlers for the composer's form: files go to the pending list. */
export function fileDropHandlers(chat: ChatVm) {
  const add = (files: File[]) => {
    if (files.length > 0 && chat.pendingFiles !== null) void chat.pendingFiles.add(chat.projectId, files);
  };
  return {
    onDragOver: (event: DragEvent) => {
      if (event.dataTransfer.types.includes('Files')) event.preventDefault();
    },
    onDrop: (event: DragEvent) => {
      const files = filesOf(event.dataTransfer.files);
      if (files.length === 0) return;
      event.preventDefault();
      add(files);
    },
    onPaste: (event: ClipboardEvent) => {
      const files = filesOf(event.clipboardData.files);
      if (files.length === 0) return;
      event.preventDefault();
      add(files);
    },
  };
}

export const AttachButton = observer(function AttachButton({ chat }: { chat: ChatVm }) {
  const input = useRef<HTMLInputElement>(null);
  if (chat.pendingFiles === null) return null;
  const store = chat.pendingFiles;
  return (
    <>
      <Tooltip content="Attach images or files">
        <button
          type="button"
          aria-label="Attach files"
          onClick={() => input.current?.click()}
          className="inline-flex size-8 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
        >
          <Paperclip className="size-4" aria-hidden />
        </button>
      </Tooltip>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPTED_FILES}
        aria-label="Files to attach"
        className="hidden"
        onChange={(event) => {
          void store.add(chat.projectId, filesOf(event.target.files));
          event.target.value = '';
        }}
      />
    </>
  );
});

export const PendingFilesList = observer(function PendingFilesList({ chat }: { chat: ChatVm }) {
  const store = chat.pendingFiles;
  if (store === null) return null;
  const files = store.filesOf(chat.projectId);
  if (files.length === 0) return null;
  return (
    <ul aria-label="Attached files" className="flex flex-wrap gap-1.5">
      {files.map((file) => (
        <li key={file.id} aria-label={file.name} className="grid max-w-full gap-0.5">
          <span
            className={`inline-flex max-w-56 min-w-0 items-center gap-1.5 rounded-md border px-1.5 py-1 text-xs ${file.state === 'failed' ? 'border-destructive/50 text-destructive' : 'border-border bg-muted text-muted-foreground'}`}
          >
            {file.previewUrl !== null ? <img src={file.previewUrl} alt="" className="size-8 shrink-0 rounded object-cover" /> : <FileText className="size-4 shrink-0" aria-hidden />}
            <span className="truncate text-foreground">{file.name}</span>
            {file.state === 'uploading' && <LoaderCircle className="size-3.5 shrink-0 animate-spin" aria-label="Uploading" />}
            <button
              type="button"
              aria-label={`Remove ${file.name}`}
              onClick={() => store.remove(chat.projectId, file.id)}
              className="inline-flex size-5 shrink-0 items-center justify-center rounded text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
            >
              <X className="size-3" aria-hidden />
            </button>
          </span>
          {file.error !== null && (
            <span role="alert" className="max-w-72 text-xs text-destructive">
              {file.error}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
});

/** The files a sent message carried, under its bubble. */
export function SentFiles({ files }: { files: readonly AttachmentRef[] }) {
  if (files.length === 0) return null;
  return (
    <ul aria-label="Files in this message" className="flex flex-wrap justify-end gap-1">
      {files.map((file) => (
        <li key={file.path} className="inline-flex max-w-56 items-center gap-1 rounded-md border border-border bg-muted px-2 py-0.5 text-xs text-muted-foreground">
          <Paperclip className="size-3 shrink-0" aria-hidden />
          <span className="truncate">{file.name || file.fileName}</span>
        </li>
      ))}
    </ul>
  );
}
