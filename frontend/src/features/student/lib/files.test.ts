import { describe, expect, it } from 'vitest';
import { fileKind, formatFileSize, sanitiseFileName } from './files';

describe('sanitiseFileName', () => {
  it('keeps only letters, digits, underscore, hyphen, dot and tilde', () => {
    expect(sanitiseFileName('My essay (final).pdf')).toBe('My_essay_final.pdf');
    expect(sanitiseFileName('Élodie’s draft~2.docx')).toBe('Elodies_draft~2.docx');
    expect(sanitiseFileName('../../etc/passwd.txt')).toBe('....etcpasswd.txt');
  });

  it('never leaves a name without a stem', () => {
    expect(sanitiseFileName('作文.pdf')).toBe('submission.pdf');
    expect(sanitiseFileName('???')).toBe('submission');
  });
});

describe('fileKind', () => {
  it('knows the six kinds by extension, whatever the case', () => {
    expect(fileKind({ name: 'a.PDF' })).toEqual({ mime: 'application/pdf', reader: 'pdf' });
    expect(fileKind({ name: 'scan.jpeg' })?.reader).toBe('image');
    expect(fileKind({ name: 'slides.pptx' })?.reader).toBe('textract');
    expect(fileKind({ name: 'notes.zip' })).toBeUndefined();
    expect(fileKind({ name: 'README' })).toBeUndefined();
  });
});

describe('formatFileSize', () => {
  it('reads like a file size', () => {
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(820)).toBe('820 bytes');
    expect(formatFileSize(14 * 1024)).toBe('14 KB');
    expect(formatFileSize(2.4 * 1024 * 1024)).toBe('2.4 MB');
    expect(formatFileSize(3 * 1024 * 1024)).toBe('3 MB');
    expect(formatFileSize(25 * 1024 * 1024)).toBe('25 MB');
  });
});
