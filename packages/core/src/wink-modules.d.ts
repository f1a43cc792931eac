// The English model's Porter2 stemmer: a CommonJS module without types of its own.
declare module 'wink-eng-lite-web-model/dist/porter-stemmer.js' {
  const stem: (word: string) => string;
  export default stem;
}

// The parts of the English model that `wink-model.ts` assembles (CommonJS, untyped).
declare module 'wink-eng-lite-web-model/dist/languages/cur/models/eng-core-web-model.json' {
  const json: unknown;
  export default json;
}
declare module 'wink-eng-lite-web-model/dist/load-sbd-model.js' {
  const load: () => unknown;
  export default load;
}
declare module 'wink-eng-lite-web-model/dist/load-pos-model.js' {
  const load: () => unknown;
  export default load;
}
declare module 'wink-eng-lite-web-model/dist/load-cer-meta-model.js' {
  const load: () => unknown;
  export default load;
}
declare module 'wink-eng-lite-web-model/dist/feature.js' {
  const feature: unknown;
  export default feature;
}
declare module 'wink-eng-lite-web-model/dist/lemmatize.js' {
  const lemmatize: unknown;
  export default lemmatize;
}
declare module 'wink-eng-lite-web-model/dist/readability-stats.js' {
  const stats: unknown;
  export default stats;
}
