// The English model's Porter2 stemmer: a CommonJS module without types of its own.
declare module 'wink-eng-lite-web-model/dist/porter-stemmer.js' {
  const stem: (word: string) => string;
  export default stem;
}
