import type { Attachments } from './use-attachments.ts';
import './attachments.css';

/** The composer's Attach input, the files chosen, and each upload's progress (or why it failed). */
export function AttachmentPicker({ attachments }: { attachments: Attachments }) {
  const { files, setFiles, inputKey, uploads } = attachments;
  return (
    <div className="attachment-picker">
      <label>
        Attach
        <input key={inputKey} type="file" multiple onChange={(e) => setFiles([...(e.target.files ?? [])])} />
      </label>
      {files.length > 0 && <small>{files.length === 1 ? '1 file' : `${files.length} files`} to send</small>}
      {uploads.map((u) =>
        u.error ? (
          <p key={u.id} role="alert">
            {u.name} was not uploaded: {u.error}
          </p>
        ) : (
          <span key={u.id} className="upload-progress">
            <label htmlFor={`upload-${u.id}`}>Uploading {u.name}</label>
            <progress id={`upload-${u.id}`} value={u.sent} max={u.total} />
          </span>
        ),
      )}
    </div>
  );
}
