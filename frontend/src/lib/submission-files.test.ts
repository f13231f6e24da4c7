import { describe, expect, it } from 'vitest';
import {
  formatFileSize,
  isCsvFile,
  readerFlags,
  MAX_SUBMISSION_NAME,
  sanitizeFileName,
  SUBMISSION_ACCEPT,
  submissionFileType,
  submissionName,
} from './submission-files';

describe('sanitizeFileName', () => {
  // Only letters, digits, _ - . ~ are kept; a name left with nothing before its extension
  // becomes file.<ext>.
  it.each([
    ['essay 1 (final).pdf', 'essay1final.pdf'],
    ['Ünïcødé~name_v2-3.docx', 'ncd~name_v2-3.docx'],
    ['Élodie’s draft~2.docx', 'lodiesdraft~2.docx'],
    ['../../etc/passwd.txt', '....etcpasswd.txt'],
    ['scan?.PNG', 'scan.PNG'],
    ['README', 'README'],
    ['論文.pdf', 'file.pdf'],
    ['作文.PDF', 'file.pdf'],
    ['(-).docx', 'file.docx'],
    ['???', 'file'],
    ['...', 'file'],
  ])('makes %s safe for a storage key: %s', (name, expected) => {
    expect(sanitizeFileName(name)).toBe(expected);
  });
});

describe('submissionName', () => {
  it('keeps a name of up to 200 characters as it is', () => {
    expect(submissionName('My essay (final).pdf')).toBe('My essay (final).pdf');
    const exact = `${'a'.repeat(196)}.pdf`;
    expect(submissionName(exact)).toBe(exact);
  });

  it('shortens a longer name to 200 characters, keeping its start, the end of its stem and its extension', () => {
    const long = `My_photosynthesis_homework_final_version_really_final_${'x'.repeat(211)}_v2.txt`;
    const short = submissionName(long);
    expect(Array.from(short)).toHaveLength(MAX_SUBMISSION_NAME);
    expect(short.startsWith('My_photosynthesis_homework_final_version_really_final_')).toBe(true);
    expect(short.endsWith('xxxxxxxxxx_v2.txt')).toBe(true);
    expect(short.split('…')).toHaveLength(2);
    expect(submissionFileType({ name: short })).toEqual(submissionFileType({ name: long }));
  });

  it('counts characters as the server does (code points), not UTF-16 units', () => {
    const emoji = `${'📄'.repeat(150)}.pdf`; // 154 characters, 304 UTF-16 units
    expect(submissionName(emoji)).toBe(emoji);
    const short = submissionName(`${'é📄'.repeat(150)}.docx`);
    expect(Array.from(short)).toHaveLength(MAX_SUBMISSION_NAME);
    expect(short.endsWith('.docx')).toBe(true);
  });

  it('cuts the end of a name without a usable extension', () => {
    const short = submissionName(`notes.${'z'.repeat(300)}`);
    expect(Array.from(short)).toHaveLength(MAX_SUBMISSION_NAME);
    expect(short.startsWith('notes.zz')).toBe(true);
    expect(short).toContain('…');
  });
});

describe('submissionFileType', () => {
  it('picks the media type and reader from the extension, whatever the case', () => {
    expect(submissionFileType({ name: 'a.PDF' })).toEqual({ mimeType: 'application/pdf', reader: 'pdf' });
    expect(submissionFileType({ name: 'essay.docx' })).toEqual({
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      reader: 'textract',
    });
    expect(submissionFileType({ name: 'slides.pptx' })?.reader).toBe('textract');
    expect(submissionFileType({ name: 'notes.txt' })?.reader).toBe('textract');
    expect(submissionFileType({ name: 'photo.jpeg' })).toEqual({ mimeType: 'image/jpeg', reader: 'image' });
    expect(submissionFileType({ name: 'photo.jpg' })?.mimeType).toBe('image/jpeg');
    expect(submissionFileType({ name: 'scan.png' })).toEqual({ mimeType: 'image/png', reader: 'image' });
  });

  it('refuses other kinds and names without an extension', () => {
    expect(submissionFileType({ name: 'sheet.xlsx' })).toBeNull();
    expect(submissionFileType({ name: 'notes.zip' })).toBeNull();
    expect(submissionFileType({ name: 'pdf' })).toBeNull();
    expect(submissionFileType({ name: 'README' })).toBeNull();
    expect(submissionFileType({ name: 'trick.constructor' })).toBeNull();
  });

  it('offers the file picker each accepted extension and media type once', () => {
    const accept = SUBMISSION_ACCEPT.split(',');
    expect(accept).toEqual(expect.arrayContaining(['.pdf', '.docx', '.pptx', '.txt', '.jpg', '.jpeg', '.png', 'image/jpeg']));
    expect(new Set(accept).size).toBe(accept.length);
  });
});

describe('readerFlags', () => {
  it('flags, file by file, the reader each needs', () => {
    expect(readerFlags(['pdf', 'textract', 'image', 'pdf'])).toEqual({
      requiresTextractArray: [false, true, false, false],
      requiresPDFReadArray: [true, false, false, true],
      requiresImageReadArray: [false, false, true, false],
    });
  });
});

describe('isCsvFile', () => {
  it('knows a CSV by its extension or its media type', () => {
    expect(isCsvFile({ name: 'Class 9B.CSV', type: '' })).toBe(true);
    expect(isCsvFile({ name: 'export', type: 'text/csv' })).toBe(true);
    expect(isCsvFile({ name: 'marks.xlsx', type: 'application/vnd.ms-excel' })).toBe(false);
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
