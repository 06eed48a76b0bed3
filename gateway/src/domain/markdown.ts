import MarkdownIt from 'markdown-it';

// Raw HTML is escaped (`html: false`) and markdown-it refuses javascript:, vbscript:, file: and
// data: links, so an operator's text cannot put markup or script on a page. Images are off: the
// portal's CSP loads none from elsewhere, and a broken picture helps nobody.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false }).disable('image');

// The text sits under the page's own headings (h1 the page, h2 its section): `#` becomes h3.
markdown.core.ruler.push('shift_headings', (state) => {
  for (const token of state.tokens) {
    if (token.type === 'heading_open' || token.type === 'heading_close') token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 2)}`;
  }
  return true;
});

/** CommonMark to HTML that holds only the elements Markdown makes (no raw HTML, no images, no script links). */
export function renderMarkdown(text: string): string {
  return text.trim() === '' ? '' : markdown.render(text);
}
