/** Vite's `?raw` import (the file's text), as vite/client declares it; only this folder uses it. */
declare module '*?raw' {
  const text: string;
  export default text;
}
