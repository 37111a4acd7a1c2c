/**
 * xterm.js writes its theme and cell sizes into <style> elements it creates, which the pages'
 * Content-Security-Policy (no inline style) refuses, even empty ones. On the page that runs it,
 * a <style> asked of script is an inert <template> whose text is applied as a constructed style
 * sheet instead, which the policy allows (it governs markup, not the CSS object model).
 */
let constructing = false;

export function constructStyleElements(): void {
  if (constructing) return;
  constructing = true;
  const create = Document.prototype.createElement;
  Document.prototype.createElement = function createElement(this: Document, name: string, options?: ElementCreationOptions) {
    if (name.toLowerCase() !== 'style') return create.call(this, name, options);
    const element = create.call(this, 'template');
    const sheet = new CSSStyleSheet();
    this.adoptedStyleSheets = [...this.adoptedStyleSheets, sheet];
    Object.defineProperty(element, 'textContent', {
      get: () => [...sheet.cssRules].map((rule) => rule.cssText).join('\n'),
      set: (text: string | null) => sheet.replaceSync(text ?? ''),
    });
    Object.defineProperty(element, 'remove', {
      value: () => {
        this.adoptedStyleSheets = this.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
        HTMLElement.prototype.remove.call(element);
      },
    });
    return element;
  } as typeof Document.prototype.createElement;
}
