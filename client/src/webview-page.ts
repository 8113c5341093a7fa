/**
 * The frame of the extension's webview pages (results, plan): a static page
 * (no scripts) under a Content-Security-Policy that allows only the
 * webview's own styles and inline images, in the editor's theme colors.
 */

const BASE_STYLE = `body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 12px; }
h2 { font-size: 1.1em; } h3 { font-size: 1em; margin: 12px 0 4px; } .dims, .note, .meta { color: var(--vscode-descriptionForeground); font-weight: normal; }`;

export function webviewPage(title: string, cspSource: string, style: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline'; img-src ${cspSource} data:;">
<title>${title}</title>
<style>
${BASE_STYLE}
${style}
</style></head>
<body>
${body}
</body></html>`;
}
