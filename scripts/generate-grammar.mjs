// Writes syntaxes/dml.tmLanguage.json (the TextMate grammar of DML) from the
// readable definitions below. Usage: node scripts/generate-grammar.mjs [OUT]
// (default: syntaxes/dml.tmLanguage.json). Edit here, regenerate, commit both.
import { writeFileSync } from "node:fs";
const ID = String.raw`[A-Za-z][A-Za-z0-9_]*`;
const DOTTED = String.raw`(?:as\.(?:scalar|matrix|frame|list|double|integer|logical|boolean)|index\.return|empty\.return|lower\.(?:tail|tri)|upper\.tri|is\.(?:na|nan|infinite))`;
const NAME = String.raw`(?:${DOTTED}|${ID})`;
const KEYWORDS = ["if","else","for","parfor","while","in","function","externalFunction","return","implemented","source","as","setwd","ifdef","TRUE","FALSE","int","integer","string","boolean","double","unknown","Int","Integer","String","Boolean","Double","Unknown"];
const NOT_KEYWORD = String.raw`(?!(?:${KEYWORDS.join("|")})\b(?!\.))`;
const VALUE_TYPE = String.raw`(?:int|integer|string|boolean|double|unknown|Int|Integer|String|Boolean|Double|Unknown)`;
const DATA_TYPE = String.raw`(?:matrix|Matrix|frame|Frame|list|List|scalar|Scalar|tensor|Tensor)`;
const BUILTINS = ("matrix rand seq sample frame tensor list outer table ctable diag as.matrix as.frame as.list as.scalar castAsScalar as.double as.integer as.logical as.boolean compress decompress " +
  "nrow ncol length exists typeof lineage local time toString ifelse remove " +
  "sum prod mean avg var sd min pmin max pmax range median quantile interQuantile interQuartileMean moment centralMoment cov trace tr colSums colMeans colVars colSds colMaxs colMins colProds rowSums rowMeans rowVars rowSds rowMaxs rowMins rowProds rowIndexMax rowIndexMin aggregate unique " +
  "cumsum cumprod cummin cummax cumsumprod rowcumsum " +
  "abs sign sqrt exp log sin cos tan asin acos atan sinh cosh tanh round floor ceil ceiling is.na is.nan is.infinite xor bitwAnd bitwOr bitwXor bitwShiftL bitwShiftR " +
  "t rev roll order cbind append rbind removeEmpty replace lower.tri upper.tri " +
  "solve inv inverse cholesky det eigen lu qr svd fft ifft einsum " +
  "cdf icdf pnorm qnorm pt qt pf qf pchisq qchisq pexp qexp " +
  "transformencode transformapply transformdecode transformmeta tokenize map colnames detectSchema " +
  "eval paramserv print stop assert write read readMM").split(" ");
const esc = (s) => s.replace(/\./g, "\\.");
const BUILTIN_RE = String.raw`(?:${BUILTINS.map(esc).sort((a, b) => b.length - a.length).join("|")})`;

const grammar = {
  $schema: "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
  name: "DML",
  scopeName: "source.dml",
  fileTypes: ["dml"],
  patterns: [{ include: "#statement" }],
  repository: {
    statement: {
      patterns: [
        { include: "#comments" },
        { include: "#function-definition" },
        { include: "#expression" },
      ],
    },
    comments: {
      patterns: [
        {
          comment: "A `# %%` cell marker; the rest of the line is the cell title.",
          match: String.raw`^\s*((#)\s*%%)(.*)$`,
          name: "comment.line.number-sign.cell.dml",
          captures: {
            1: { name: "markup.heading.cell.dml" },
            2: { name: "punctuation.definition.comment.dml" },
            3: { name: "entity.name.section.cell.dml" },
          },
        },
        {
          begin: "/\\*",
          end: "\\*/",
          name: "comment.block.dml",
          beginCaptures: { 0: { name: "punctuation.definition.comment.begin.dml" } },
          endCaptures: { 0: { name: "punctuation.definition.comment.end.dml" } },
        },
        {
          match: "(#).*$",
          name: "comment.line.number-sign.dml",
          captures: { 1: { name: "punctuation.definition.comment.dml" } },
        },
      ],
    },
    "function-definition": {
      comment: "`name = function(` / `name = externalFunction(`; the parameter lists follow.",
      match: String.raw`(${ID})\s*(=|<-)\s*(?=(?:function|externalFunction)\b)`,
      captures: {
        1: { name: "entity.name.function.dml" },
        2: { name: "keyword.operator.assignment.dml" },
      },
    },
    expression: {
      patterns: [
        { include: "#comments" },
        { include: "#strings" },
        { include: "#numbers" },
        { include: "#parameter-list" },
        { include: "#function-call" },
        { include: "#keywords" },
        { include: "#types" },
        { include: "#constants" },
        { include: "#command-line-parameters" },
        { include: "#operators" },
        { include: "#parens" },
        { include: "#brackets" },
        { include: "#punctuation" },
        { include: "#identifiers" },
      ],
    },
    strings: {
      patterns: [
        {
          begin: '"',
          end: '"',
          name: "string.quoted.double.dml",
          beginCaptures: { 0: { name: "punctuation.definition.string.begin.dml" } },
          endCaptures: { 0: { name: "punctuation.definition.string.end.dml" } },
          patterns: [{ include: "#string-escapes" }],
        },
        {
          begin: "'",
          end: "'",
          name: "string.quoted.single.dml",
          beginCaptures: { 0: { name: "punctuation.definition.string.begin.dml" } },
          endCaptures: { 0: { name: "punctuation.definition.string.end.dml" } },
          patterns: [{ include: "#string-escapes" }],
        },
      ],
    },
    "string-escapes": {
      patterns: [
        { match: String.raw`\\[btnfr"'\\]`, name: "constant.character.escape.dml" },
        { match: String.raw`\\.`, name: "invalid.illegal.escape.dml" },
      ],
    },
    numbers: {
      comment: "INT: 1, 7L. DOUBLE: 1.5, 5., .5, 1e3, 1.5E-3 (optionally with L).",
      patterns: [
        {
          match: String.raw`(?<![\w.])(?:\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)[lL]?(?![\w.])`,
          name: "constant.numeric.float.dml",
        },
        { match: String.raw`(?<![\w.])\d+[lL]?(?![\w.])`, name: "constant.numeric.integer.dml" },
      ],
    },
    "parameter-list": {
      comment: "The typed parameters after `function`, `externalFunction` and `return`.",
      begin: String.raw`\b(?:(function|externalFunction)|(return))\s*(\()`,
      beginCaptures: {
        1: { name: "storage.type.function.dml" },
        2: { name: "keyword.other.dml" },
        3: { name: "punctuation.definition.parameters.begin.dml" },
      },
      end: String.raw`\)`,
      endCaptures: { 0: { name: "punctuation.definition.parameters.end.dml" } },
      name: "meta.function.parameters.dml",
      patterns: [
        { include: "#comments" },
        {
          match: String.raw`\b(?:(${DATA_TYPE})\s*(\[)\s*(${VALUE_TYPE})\s*(\])|(${VALUE_TYPE}))\s+(${ID})`,
          captures: {
            1: { name: "storage.type.data.dml" },
            2: { name: "punctuation.section.brackets.begin.dml" },
            3: { name: "storage.type.value.dml" },
            4: { name: "punctuation.section.brackets.end.dml" },
            5: { name: "storage.type.value.dml" },
            6: { name: "variable.parameter.dml" },
          },
        },
        { include: "#expression" },
      ],
    },
    keywords: {
      patterns: [
        { match: String.raw`\b(?:if|else|for|parfor|while|in)\b`, name: "keyword.control.dml" },
        { match: String.raw`\b(?:source|setwd)\b`, name: "keyword.control.import.dml" },
        { match: String.raw`\bas\b(?!\.)`, name: "keyword.control.import.dml" },
        { match: String.raw`\b(?:function|externalFunction)\b`, name: "storage.type.function.dml" },
        { match: String.raw`\b(?:return|implemented)\b`, name: "keyword.other.dml" },
        { match: String.raw`\bifdef\b`, name: "keyword.other.ifdef.dml" },
      ],
    },
    types: {
      patterns: [
        {
          match: String.raw`\b(${DATA_TYPE})\s*(\[)\s*(${VALUE_TYPE})\s*(\])`,
          captures: {
            1: { name: "storage.type.data.dml" },
            2: { name: "punctuation.section.brackets.begin.dml" },
            3: { name: "storage.type.value.dml" },
            4: { name: "punctuation.section.brackets.end.dml" },
          },
        },
        { match: String.raw`\b${VALUE_TYPE}\b`, name: "storage.type.value.dml" },
      ],
    },
    constants: {
      patterns: [
        { match: String.raw`\b(?:TRUE|FALSE)\b`, name: "constant.language.boolean.dml" },
        { match: String.raw`\b(?:Inf|NaN|pi)\b(?!\s*\()`, name: "constant.language.dml" },
      ],
    },
    "command-line-parameters": {
      match: String.raw`(\$)(?:[A-Za-z][A-Za-z0-9_]*|\d+)`,
      name: "variable.other.constant.parameter.dml",
      captures: { 1: { name: "punctuation.definition.variable.dml" } },
    },
    "function-call": {
      comment: "`f(...)`, `ns::f(...)`, `as.scalar(...)`; `name = value` inside the parentheses is a named argument.",
      begin: String.raw`(?:\b(${ID})(::))?\b${NOT_KEYWORD}(?:(${BUILTIN_RE})|(${NAME}))\s*(\()`,
      beginCaptures: {
        1: { name: "entity.name.namespace.dml" },
        2: { name: "punctuation.separator.namespace.dml" },
        3: { name: "support.function.builtin.dml" },
        4: { name: "entity.name.function.call.dml" },
        5: { name: "punctuation.definition.arguments.begin.dml" },
      },
      end: String.raw`\)`,
      endCaptures: { 0: { name: "punctuation.definition.arguments.end.dml" } },
      name: "meta.function-call.dml",
      patterns: [
        {
          match: String.raw`\b(${NAME})\s*(=)(?!=)`,
          captures: {
            1: { name: "variable.parameter.named-argument.dml" },
            2: { name: "keyword.operator.assignment.dml" },
          },
        },
        { include: "#expression" },
      ],
    },
    operators: {
      patterns: [
        { match: "%\\*%", name: "keyword.operator.matrix-multiplication.dml" },
        { match: "%/%|%%", name: "keyword.operator.arithmetic.dml" },
        { match: "<-|\\+=", name: "keyword.operator.assignment.dml" },
        { match: "==|!=|<=|>=|<|>", name: "keyword.operator.comparison.dml" },
        { match: "&&|\\|\\||&|\\||!", name: "keyword.operator.logical.dml" },
        { match: "=", name: "keyword.operator.assignment.dml" },
        { match: "\\^|\\*|/|\\+|-", name: "keyword.operator.arithmetic.dml" },
        { match: ":", name: "keyword.operator.range.dml" },
      ],
    },
    parens: {
      begin: "\\(",
      end: "\\)",
      beginCaptures: { 0: { name: "punctuation.section.parens.begin.dml" } },
      endCaptures: { 0: { name: "punctuation.section.parens.end.dml" } },
      patterns: [{ include: "#expression" }],
    },
    brackets: {
      begin: "\\[",
      end: "\\]",
      beginCaptures: { 0: { name: "punctuation.section.brackets.begin.dml" } },
      endCaptures: { 0: { name: "punctuation.section.brackets.end.dml" } },
      patterns: [{ include: "#expression" }],
    },
    punctuation: {
      patterns: [
        { match: "\\{", name: "punctuation.section.block.begin.dml" },
        { match: "\\}", name: "punctuation.section.block.end.dml" },
        { match: ",", name: "punctuation.separator.comma.dml" },
        { match: ";", name: "punctuation.terminator.statement.dml" },
      ],
    },
    identifiers: {
      patterns: [
        {
          match: String.raw`\b(${ID})(::)(${ID})\b`,
          captures: {
            1: { name: "entity.name.namespace.dml" },
            2: { name: "punctuation.separator.namespace.dml" },
            3: { name: "variable.other.dml" },
          },
        },
        { match: String.raw`\b${NAME}\b`, name: "variable.other.dml" },
      ],
    },
  },
};
const out = process.argv[2] ?? new URL("../syntaxes/dml.tmLanguage.json", import.meta.url);
writeFileSync(out, JSON.stringify(grammar, null, 2) + "\n");
