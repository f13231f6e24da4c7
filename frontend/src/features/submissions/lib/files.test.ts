import { describe, expect, it } from 'vitest';
import { sanitizeFileName, submissionFileType } from './files';

describe('submission files', () => {
  it.each([
    ['essay 1 (final).pdf', 'essay1final.pdf'],
    ['Ünïcødé~name_v2-3.docx', 'ncd~name_v2-3.docx'],
    ['../../etc/passwd.txt', '....etcpasswd.txt'],
    ['論文.pdf', 'file.pdf'],
    ['scan?.PNG', 'scan.PNG'],
  ])('keeps only letters, digits, _ - . ~ in %s', (name, expected) => {
    expect(sanitizeFileName(name)).toBe(expected);
  });

  it('picks the reader from the extension, whatever the case', () => {
    expect(submissionFileType({ name: 'a.PDF' })).toEqual({ mimeType: 'application/pdf', reader: 'pdf' });
    expect(submissionFileType({ name: 'slides.pptx' })?.reader).toBe('textract');
    expect(submissionFileType({ name: 'notes.txt' })?.reader).toBe('textract');
    expect(submissionFileType({ name: 'photo.jpeg' })).toEqual({ mimeType: 'image/jpeg', reader: 'image' });
    expect(submissionFileType({ name: 'photo.jpg' })?.mimeType).toBe('image/jpeg');
    expect(submissionFileType({ name: 'sheet.xlsx' })).toBeNull();
    expect(submissionFileType({ name: 'pdf' })).toBeNull();
  });
});
