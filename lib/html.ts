/** Text made safe to put in HTML (element content or a quoted attribute): the five characters HTML gives meaning to, as numeric references. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
