'use client';

import { schemaSize } from '@aguikit/core/engine';
import { enumCopy } from '@aguikit/core/internal';
import { type AgentStore, useAgentStore } from '@aguikit/react';
import Form, { getDefaultRegistry, type IChangeEvent } from '@rjsf/core';
import {
  ANY_OF_KEY,
  ariaDescribedByIds,
  type BaseInputTemplateProps,
  type DescriptionFieldProps,
  descriptionId,
  englishStringTranslator,
  enumOptionsIndexForValue,
  errorId,
  examplesId,
  type FieldErrorProps,
  type FieldTemplateProps,
  getTemplate,
  getUiOptions,
  helpId,
  type IconButtonProps,
  ONE_OF_KEY,
  type RJSFValidationError,
  replaceStringParameters,
  type TemplatesType,
  type TitleFieldProps,
  TranslatableString,
  type UnsupportedFieldProps,
  type WidgetProps,
} from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import Ajv from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ReactNode } from 'react';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import {
  endlessAt,
  FORM_COMBINATIONS_LIMIT,
  FORM_ENTRIES_LIMIT,
  type FormRefusal,
  formRefusal,
  formSchema,
  transformErrors,
} from './formSchema.js';
import { useInterruptRoot } from './interruptContext.js';
import { formUiSchema, humanizeKey, type InterruptMessages } from './interruptForm.js';
import { linearRegExp, patternsRun } from './linearRegExp.js';
import { useLocale } from './locale.js';
import { describableId, errorPath, withExactPaths } from './responseFormPaths.js';
import { type ChosenOption, itemOf, propertyOf, walkOf } from './schemaWalk.js';
import { autoDir } from './textDirection.js';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';

/** The element around the form: the document its fields look their descriptions up in. */
const FormWrapperContext = clientContext<React.RefObject<HTMLDivElement | null> | null>(null);

/**
 * The controls of a field: its own element, or each option of a radio or
 * checkbox group (`<id>-0`, `<id>-1`, ...), within its form (`scope`), found
 * by id: a pass over the document cost each field of each open form a pass
 * over every other form, and 300 interrupts open at once took seconds to
 * render. Where an id is found outside the form (an app's page reusing it),
 * the form is searched.
 */
function controlsOf(scope: ParentNode & Node, id: string): HTMLElement[] {
  const doc = scope.ownerDocument ?? (scope as Document);
  const byId: HTMLElement[] = [];
  for (let n = -1; ; n++) {
    const el = doc.getElementById(n < 0 ? id : `${id}-${n}`);
    if (el === null) {
      if (n < 0) continue;
      break;
    }
    if (!scope.contains(el)) return searched(scope, id);
    if (el.matches('input, select, textarea')) byId.push(el);
  }
  return byId;
}

/** `controlsOf` by a search of `scope`. */
function searched(scope: ParentNode, id: string): HTMLElement[] {
  const escaped = CSS.escape(id);
  const options = [...scope.querySelectorAll<HTMLElement>(`[id^="${escaped}-"]`)].filter((el) => /^-\d+$/.test(el.id.slice(id.length)));
  return [scope.querySelector<HTMLElement>(`#${escaped}`), ...options].filter(
    (el): el is HTMLElement => el?.matches('input, select, textarea') === true,
  );
}

/** What names the option selector of a `oneOf` / `anyOf` field that shows no label of its own: its title, else another element. */
type SelectorName = { label: string } | { labelledBy: string };

/**
 * rjsf describes each control by its field's error, description and help
 * ids whether they are rendered or not: here a control names only those in
 * the document (an id with a space in it cannot be named: the form renders
 * its own with `describableId`), again after each render of its field
 * (errors come and go), and is `aria-invalid` while its field shows an
 * error (the form itself does not render again as errors are re-checked
 * while typing). The option selector of a `oneOf` / `anyOf` field
 * (`selector`) is one of its controls, named by `name` where no label
 * points at it.
 */
function useRenderedDescriptions(id: string, selector?: string, name?: SelectorName) {
  const wrapper = React.useContext(FormWrapperContext);
  const label = name && 'label' in name ? name.label : undefined;
  const labelledBy = name && 'labelledBy' in name ? name.labelledBy : undefined;
  useBrowserLayoutEffect(() => {
    const doc = wrapper?.current?.ownerDocument ?? document;
    const errors = describableId(errorId(id));
    const described = [errors, describableId(descriptionId(id)), helpId(id), examplesId(id)].filter(
      (part) => !/\s/u.test(part) && doc.getElementById(part) !== null,
    );
    // The form's wrapper is set only after its fields' first effects: on mount, the form the field's first control is in.
    const anchor = doc.getElementById(id) ?? doc.getElementById(`${id}-0`) ?? (selector ? doc.getElementById(selector) : null);
    const scope = wrapper?.current ?? anchor?.closest('form') ?? doc;
    // Its errors are rendered by the field itself: it is invalid from the render that shows them to the one that takes them away.
    const invalid = described.includes(errors);
    for (const control of controlsOf(scope, id)) {
      toggle(control, 'aria-describedby', described.join(' '));
      toggle(control, 'aria-invalid', invalid ? 'true' : '');
    }
    const chooser = selector ? scope.querySelector<HTMLElement>(`#${CSS.escape(selector)}`) : null;
    if (!chooser) return;
    toggle(chooser, 'aria-describedby', described.join(' '));
    toggle(chooser, 'aria-label', label ?? '');
    toggle(chooser, 'aria-labelledby', labelledBy ?? '');
  });
}

/** Sets `name` to `value` on `element`, or removes it for an empty value. */
function toggle(element: HTMLElement, name: string, value: string) {
  if (value) element.setAttribute(name, value);
  else element.removeAttribute(name);
}

/**
 * The id of the selector rjsf draws to choose an option of a `oneOf` /
 * `anyOf` field (as SchemaField and MultiSchemaField decide it), if the
 * field has one: its label points there, not at the option's fieldset.
 */
function optionSelectorId({ id, schema, uiSchema, registry }: FieldTemplateProps): string | undefined {
  if (!(ONE_OF_KEY in schema || ANY_OF_KEY in schema)) return undefined;
  const options = getUiOptions(uiSchema, registry.globalUiOptions);
  if ((options.field && options.fieldReplacesAnyOrOneOf === true) || registry.schemaUtils.isSelect(schema)) return undefined;
  return `${id}${schema.oneOf ? '__oneof_select' : '__anyof_select'}`;
}

/**
 * The title rjsf gives an item of a list that has none of its own (the
 * list's title and the item's place: "Contacts-2"), as a person reads it
 * ("Contacts, item 2"), in the locale's words. `index` is the item's place
 * (from 0) where the field is an item; an item whose schema or `ui:title`
 * names it keeps that name.
 */
function useItemTitle(
  title: string,
  index: number | undefined,
  { schema, uiSchema }: { schema: FieldTemplateProps['schema']; uiSchema?: FieldTemplateProps['uiSchema'] | undefined },
) {
  const { format, messages } = useLocale();
  if (index === undefined || schema.title !== undefined || getUiOptions(uiSchema).title !== undefined) return title;
  const suffix = `-${index + 1}`;
  if (!title.endsWith(suffix) || title.length === suffix.length) return title;
  return messages.interrupt.itemHeading(title.slice(0, -suffix.length), format.number(index + 1));
}

/** The place (from 0) of the item of a list at `path`, if the field there is one. */
const itemIndex = (path: readonly (string | number)[]): number | undefined => {
  const last = path[path.length - 1];
  return typeof last === 'number' ? last : undefined;
};

/**
 * A field with its label. The required marker "*" is hidden from assistive
 * technology (the field itself says `aria-required`, and the form explains
 * the marker in a line of its own): the field's name is its label alone.
 * Its controls are described only by what is rendered of its description,
 * errors and help. The label of a `oneOf` / `anyOf` field names the
 * selector of its options; where it shows none (an object's title is its
 * legend), the selector is named by the field's title, or at the top of the
 * form by the interrupt's heading.
 */
function FieldTemplate(props: FieldTemplateProps) {
  const { id, children, errors, help, description, hidden, required, displayLabel, registry, uiSchema } = props;
  const label = useItemTitle(props.label, itemIndex(props.fieldPathId.path), props);
  const uiOptions = getUiOptions(uiSchema);
  const isCheckbox = uiOptions.widget === 'checkbox';
  const labelled = Boolean(displayLabel && !isCheckbox && label);
  const selector = optionSelectorId(props);
  const titleId = useInterruptRoot('Form').ids.title;
  useRenderedDescriptions(id, selector, selector === undefined || labelled ? undefined : label ? { label } : { labelledBy: titleId });
  const WrapIfAdditionalTemplate = getTemplate('WrapIfAdditionalTemplate', registry, uiOptions);
  if (hidden) return <div className="hidden">{children}</div>;
  return (
    <WrapIfAdditionalTemplate {...props}>
      {labelled ? (
        <label className="control-label" htmlFor={selector ?? id} dir={autoDir(label)}>
          {label}
          {required ? (
            <span className="required" aria-hidden="true">
              *
            </span>
          ) : null}
        </label>
      ) : null}
      {displayLabel && description ? description : null}
      {children}
      {errors}
      {help}
    </WrapIfAdditionalTemplate>
  );
}

/** Schema text is the agent's: shown as text, never as markdown or HTML (rjsf's RichDescription is not used), in its own direction. */
function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  if (!description) return null;
  return (
    <p id={describableId(id)} className="agk-field__description" dir={typeof description === 'string' ? autoDir(description) : 'auto'}>
      {description}
    </p>
  );
}

function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const messages = [...new Set(errors.filter((e): e is string => typeof e === 'string'))];
  if (messages.length === 0) return null;
  return (
    <ul id={describableId(errorId(fieldPathId))} className="agk-field__errors">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

/**
 * The legend of an object or a list: its required marker "*" hidden from
 * assistive technology as a field label's is, so the group's name is its
 * title alone. An item of a list is headed as `useItemTitle` says.
 */
function TitleFieldTemplate({ id, title: given, required, optionalDataControl, schema, uiSchema }: TitleFieldProps) {
  // An object's legend: its id is its field's and "__title", the field's ending in "_" and its place where it is an item.
  const place = /_(\d+)__title$/.exec(id)?.[1];
  const title = useItemTitle(given, place === undefined ? undefined : Number(place), { schema, uiSchema });
  return (
    <legend id={id} dir={autoDir(title)}>
      {title}
      {required ? (
        <span className="required" aria-hidden="true">
          *
        </span>
      ) : null}
      {optionalDataControl ? <span className="pull-right">{optionalDataControl}</span> : null}
    </legend>
  );
}

/** rjsf's buttons show Bootstrap glyph icons, which aguikit does not load: words instead. */
function TextButton({
  label,
  iconType: _type,
  icon: _icon,
  className: _class,
  uiSchema: _ui,
  registry,
  ...rest
}: IconButtonProps & { label: TranslatableString }) {
  return (
    <button type="button" className="agk-button agk-field__button" {...rest} title={undefined}>
      {registry.translateString(label)}
    </button>
  );
}

const AddButton = (props: IconButtonProps) => <TextButton {...props} label={TranslatableString.AddItemButton} />;
const CopyButton = (props: IconButtonProps) => <TextButton {...props} label={TranslatableString.CopyButton} />;
const MoveDownButton = (props: IconButtonProps) => <TextButton {...props} label={TranslatableString.MoveDownButton} />;
const MoveUpButton = (props: IconButtonProps) => <TextButton {...props} label={TranslatableString.MoveUpButton} />;
const RemoveButton = (props: IconButtonProps) => <TextButton {...props} label={TranslatableString.RemoveButton} />;

/**
 * A field of a type no form can ask for: said in the locale's words only.
 * rjsf's own template renders the field's name and the schema's `type` as
 * Markdown, and both are the agent's text (a Markdown image there would load).
 */
function UnsupportedFieldTemplate({ registry }: UnsupportedFieldProps) {
  return <p className="agk-error-text agk-field__unsupported">{registry.translateString(TranslatableString.UnsupportedField)}</p>;
}

/**
 * Says that the form cannot be shown and why (`why`, in the locale's words), and leaves the interrupt to be closed
 * (what FormBoundary does for a form that throws). What in the schema is at fault (`detail`: a keyword, where it is,
 * the limit it passed) is a developer's to read, in English: it goes to the console once, not to the person answering.
 */
function FormUnusable({ onFailure, message, why, detail }: { onFailure: () => void; message: string; why?: string; detail?: string }) {
  React.useEffect(() => onFailure(), [onFailure]);
  React.useEffect(() => {
    if (!detail || warned.has(detail)) return;
    warned.add(detail);
    console.warn(detail);
  }, [detail]);
  return (
    <div className="agk-interrupt__form-refused">
      <p className="agk-error-text">{message}</p>
      {why ? <p>{why}</p> : null}
    </div>
  );
}

/**
 * What `FormUnusable` told the console: once per interrupt and fault, however often its card mounts (StrictMode, a
 * dialog opened again, a card drawn again).
 */
const warned = new Set<string>();

/** Why a question has no form, in the locale's words: the limit it passed, where there is one. */
function formWhy(t: InterruptMessages['formWhy'], reason: Unusable['reason'], number: (n: number) => string): string {
  if (reason === 'entries') return t.entries(number(FORM_ENTRIES_LIMIT));
  if (reason === 'combinations') return t.combinations(number(FORM_COMBINATIONS_LIMIT));
  if (reason === 'required') return t.required;
  return reason === 'deep' || reason === 'large' ? t.large : t.invalid;
}

/** A schema whose references expand past what the resume's check takes (`schemaSize`). */
const TOO_LARGE: Unusable = { reason: 'large', detail: 'its $refs expand past what can be checked (schemaSize)' };

/** Why answers to a schema cannot be asked for in a form: `FormRefusal`'s reasons and `schemaChecks`'. */
type Unusable = { reason: FormRefusal['reason'] | 'large' | 'invalid' | 'pattern'; detail: string };

const CoreInput = getDefaultRegistry().templates.BaseInputTemplate;

/**
 * rjsf's input, in the direction of what is typed: an Arabic answer reads right to left on an English page, an
 * English one left to right on an Arabic page. Empty, or without a letter (a number, a date), it keeps the page's.
 * It has no `label` attribute (rjsf's gives it its field's title, "Contacts-2" for an item of a list).
 */
function BaseInputTemplate({ label: _label, ...props }: BaseInputTemplateProps) {
  // rjsf's input writes its field's title into a `label` attribute, which HTML has not: the field's <label> names it.
  const input = props as BaseInputTemplateProps;
  return <CoreInput {...input} dir={typeof props.value === 'string' ? autoDir(props.value) : undefined} />;
}

/**
 * rjsf's text area (the same attributes and answers), in the direction of what is typed as the input above.
 * Never focused by itself: focus as an interrupt opens is interruptFocus.ts's.
 */
function TextareaWidget({
  id,
  htmlName,
  options,
  placeholder,
  value,
  required,
  disabled,
  readonly,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps) {
  const text = typeof value === 'string' ? value : '';
  return (
    <textarea
      id={id}
      name={htmlName || id}
      className="form-control"
      value={text}
      dir={autoDir(text)}
      placeholder={placeholder}
      required={required}
      disabled={disabled}
      readOnly={readonly}
      rows={typeof options.rows === 'number' ? options.rows : undefined}
      onChange={(e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
      aria-describedby={ariaDescribedByIds(id)}
    />
  );
}

// A widget rjsf always registers: its map of widgets types each as maybe absent.
const CoreSelect = getDefaultRegistry().widgets.SelectWidget as React.ComponentType<WidgetProps>;

/**
 * rjsf's select, which shows its "Choose…" option whenever its value is none
 * of the choices: rjsf leaves that option out when the schema has a
 * `default`, and a `default` outside the `enum` then read as the first
 * choice while the answer held another value.
 */
function SelectWidget(props: WidgetProps) {
  const { multiple, value, options, schema } = props;
  const unchosen = !multiple && enumOptionsIndexForValue(value, options.enumOptions) === undefined;
  if (!unchosen || schema.default === undefined) return <CoreSelect {...props} />;
  const { default: _default, ...rest } = schema;
  return <CoreSelect {...props} schema={rest} />;
}

const widgets = { SelectWidget, TextareaWidget };

const templates: Partial<Omit<TemplatesType, 'ButtonTemplates'>> & { ButtonTemplates: Partial<TemplatesType['ButtonTemplates']> } = {
  BaseInputTemplate,
  DescriptionFieldTemplate,
  FieldTemplate,
  FieldErrorTemplate,
  TitleFieldTemplate,
  UnsupportedFieldTemplate,
  ButtonTemplates: { AddButton, CopyButton, MoveDownButton, MoveUpButton, RemoveButton },
};

/** A schema rjsf cannot build (an unresolvable `$ref`, say) throws while rendering: it must not take the page down. */
class FormBoundary extends React.Component<
  { children: ReactNode; onFailure: () => void; message: string; forbidden: string },
  { failed: boolean; forbidden: boolean }
> {
  override state = { failed: false, forbidden: false };
  static getDerivedStateFromError(error: unknown) {
    return { failed: true, forbidden: codeForbidden(error) };
  }
  override componentDidCatch() {
    this.props.onFailure();
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return <p className="agk-error-text">{this.state.forbidden ? this.props.forbidden : this.props.message}</p>;
  }
}

/**
 * Whether `error` is the page refusing to compile code: ajv compiles each schema with `new Function`, which a
 * Content Security Policy without 'unsafe-eval' in script-src refuses with an EvalError (as Node's
 * `--disallow-code-generation-from-strings` does). The schema is not at fault then: the page is.
 */
const codeForbidden = (error: unknown): boolean => error instanceof EvalError;

/** rjsf's own strings in the locale's words (anything the locale does not list stays rjsf's English). */
function translator(t: InterruptMessages['rjsf']) {
  const names = new Map<string, string>(Object.entries(TranslatableString).map(([name, english]) => [english, name]));
  return (key: TranslatableString, params?: string[]) => {
    const name = names.get(key);
    const text = name && Object.hasOwn(t, name) ? t[name as keyof typeof t] : undefined;
    return text === undefined ? englishStringTranslator(key, params) : replaceStringParameters(text, params);
  };
}

/**
 * The payload sent for `interruptId` in a resume the agent never took: the
 * interrupt is open again (a resume that fails gives its interrupts back),
 * and the last resume since the run that raised it carried its answer. Read
 * from the store's session log, backwards to that run's end.
 */
function sentPayload(store: AgentStore, interruptId: string): unknown {
  const { entries } = store.session;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry === undefined || entry.type === 'reset') return undefined;
    if (entry.type === 'resume') {
      const sent = entry.resume.find((r) => r.interruptId === interruptId);
      if (sent) return sent.status === 'resolved' ? sent.payload : undefined;
    }
    // The run that raised the interrupts open now: an answer sent before it answered another question.
    if (entry.type === 'event' && (entry.event as { type?: unknown } | null)?.type === 'RUN_FINISHED') return undefined;
  }
  return undefined;
}

/** The option chosen in the selector rjsf draws for the `oneOf` / `anyOf` field `id` within `container` (see `ChosenOption`). */
function chosenOption(container: ParentNode, id: string): ChosenOption {
  return (kind) => {
    const selector = container.querySelector<HTMLSelectElement>(`select#${CSS.escape(`${id}__${kind.toLowerCase()}_select`)}`);
    if (!selector || selector.value === '') return undefined;
    const at = Number(selector.value);
    return Number.isInteger(at) && at >= 0 ? at : undefined;
  };
}

/** How the error summary names a field in a list's item: `listItem` for the item, `fieldOfItem` for a field of it. */
type ItemWords = Pick<InterruptMessages, 'listItem' | 'fieldOfItem'> & { number(value: number): string };

/**
 * A field's name for the error summary: its schema title, or its property
 * name made readable; a field of a `oneOf` / `anyOf` option as the option
 * chosen in `container` defines it. An item of a list is named by the list
 * and its place, counted from 1 ("item 2 of Contacts"), and a field of an
 * item with it ("Email in item 2 of People"): the index alone says nothing.
 */
function fieldName(
  error: RJSFValidationError,
  schema: Readonly<Record<string, unknown>>,
  container: ParentNode,
  fieldsId: string,
  words: ItemWords,
): string {
  const path = errorPath(error);
  let node: unknown = schema;
  let name = typeof schema.title === 'string' ? schema.title : '';
  /** The innermost list item on the path so far, named. */
  let item: string | undefined;
  path.forEach((part, i) => {
    const chosen = chosenOption(container, [fieldsId, ...path.slice(0, i)].join('_'));
    const inList = itemOf(node, part, chosen, walkOf(schema));
    if (inList) {
      node = inList.schema;
      item = words.listItem(name, words.number(Number(part) + 1));
      name = item;
      return;
    }
    node = propertyOf(node, part, chosen, walkOf(schema));
    const title = (node as { title?: unknown } | undefined)?.title;
    const own = typeof title === 'string' && title ? title : humanizeKey(part);
    name = item === undefined ? own : words.fieldOfItem(own, item);
  });
  return name;
}

/**
 * Whether the field of `error` is drawn in `container` where the reader sees
 * it (its control, the first of its options, the selector of its `oneOf` /
 * `anyOf` options, or its group): not a field of an option not chosen (rjsf
 * draws none), nor a hidden one.
 */
function isShown(container: HTMLElement, fieldsId: string, error: RJSFValidationError): boolean {
  const id = [fieldsId, ...errorPath(error)].join('_');
  const field = [id, `${id}-0`, `${id}__oneof_select`, `${id}__anyof_select`]
    .map((candidate) => container.querySelector<HTMLElement>(`#${CSS.escape(candidate)}`))
    .find((el) => el !== null);
  const hidden = field?.closest('.hidden');
  return field !== undefined && !field.matches('input[type="hidden"]') && !(hidden && container.contains(hidden));
}

/** Focuses the field of `error`, found by its id: rjsf's own focusOnFirstError picks a <select>'s first <option> (it has a length). */
function focusField(container: HTMLElement, fieldsId: string, error: RJSFValidationError) {
  const id = [fieldsId, ...errorPath(error)].join('_');
  const field =
    container.querySelector<HTMLElement>(`#${CSS.escape(id)}`) ??
    container.querySelector<HTMLElement>(`[id^="${CSS.escape(id)}"]:is(input, select, textarea)`);
  field?.focus();
}

/**
 * What the form's DOM says beyond rjsf's own markup: fields are
 * `aria-required` rather than `required` (a required field that is still
 * empty must not be exposed as invalid before anyone typed in it), and the
 * field group is named by the interrupt's heading. The fields with an error
 * are `aria-invalid` (useRenderedDescriptions).
 */
function useFieldAttributes(form: React.RefObject<HTMLDivElement | null>, titleId: string) {
  useBrowserLayoutEffect(() => {
    const root = form.current;
    if (!root) return;
    for (const field of root.querySelectorAll('input[required], select[required], textarea[required]')) {
      field.removeAttribute('required');
      field.setAttribute('aria-required', 'true');
    }
    const fieldset = root.querySelector('form > fieldset, form > .form-group > fieldset');
    if (fieldset && !fieldset.querySelector(':scope > legend')) fieldset.setAttribute('aria-labelledby', titleId);
  });
}

/**
 * The form generated from an interrupt's `responseSchema` (rjsf, validated
 * with ajv before anything is sent), in the locale's words (labels, buttons,
 * validation messages). Nothing is invalid before a submit: a failed submit
 * moves focus to the first invalid field, marks the fields `aria-invalid`,
 * shows each error under its field and announces a summary (`role="alert"`);
 * from then on errors are re-checked as you type. Required fields carry a
 * "*" explained by a line of the form, their names without it. Titles and
 * descriptions from the schema are shown as text only. A resume the agent
 * never took (it answered with an HTTP error) gives the interrupt back: the
 * form opens again with the answer that was sent. Renders nothing for
 * an interrupt without a responseSchema. This module (with rjsf and ajv) is a
 * chunk of its own: `Interrupt.Form` (InterruptFormLoader.tsx) loads it when
 * an interrupt with a schema opens, and renders this once it is there.
 *
 * @example
 * <Interrupt.Root interrupt={interrupt}><Interrupt.Form /><Interrupt.Actions /></Interrupt.Root>
 */
export const ResponseForm = React.forwardRef<HTMLDivElement, React.HTMLAttributes<HTMLDivElement>>(function ResponseForm(
  { className, ...rest },
  forwardedRef,
) {
  const root = useInterruptRoot('Form');
  const store = useAgentStore();
  const { format, messages } = useLocale();
  const t = messages.interrupt;
  // What was sent last, when the agent never took it: the form opens again with it, to be sent again as it is.
  const [sent] = React.useState(() => sentPayload(store, root.interrupt.id));
  const [attempted, setAttempted] = React.useState(false);
  const [summary, setSummary] = React.useState({ text: '', n: 0 });
  const wrapper = React.useRef<HTMLDivElement>(null);
  const raw = root.interrupt.responseSchema;
  const { shape } = root;
  // A schema whose $refs expand past what can be checked is refused by the resume too; rjsf would expand it to draw it.
  const checks = React.useMemo(() => formRefusal(raw) ?? (Number.isFinite(schemaSize(raw)) ? schemaChecks(raw) : TOO_LARGE), [raw]);
  const usable = checks === 'usable';
  const schema = React.useMemo(
    () => (raw === undefined || !usable ? undefined : formSchema(raw, t.yourAnswerField)),
    [raw, usable, t.yourAnswerField],
  );
  const uiSchema = React.useMemo(() => (raw === undefined ? undefined : formUiSchema(raw, shape, t.choose)), [raw, shape, t.choose]);
  const translateString = React.useMemo(() => translator(t.rjsf), [t.rjsf]);
  const transform = React.useCallback((errors: RJSFValidationError[]) => transformErrors(errors, t.errors), [t.errors]);
  const { reportFormReady } = root;
  const fieldsId = root.ids.fields;
  /** Set while the errors are worded again in a new language, until they are reported: nothing is focused or announced anew. */
  const rewording = React.useRef(false);
  useFieldAttributes(wrapper, root.ids.title);
  // The errors shown were worded when the form was checked: a new language checks it again, to word them in it.
  const wordedIn = React.useRef(t);
  const { form } = root;
  React.useEffect(() => {
    if (wordedIn.current === t) return;
    wordedIn.current = t;
    if (!attempted) return;
    rewording.current = true;
    let valid = true;
    try {
      valid = form.current?.validateForm() !== false;
    } finally {
      // Errors are reported (onError) once they are rendered, which ends the rewording; without any, it ends here.
      if (valid) rewording.current = false;
    }
  }, [t, attempted, form]);
  // After the fields are in the DOM (and after a schema rjsf cannot build has been caught): the buttons may act.
  React.useEffect(() => {
    if (schema === undefined) return;
    reportFormReady(true);
    return () => reportFormReady(false);
  }, [schema, reportFormReady]);
  if (checks === 'forbidden') return <FormUnusable onFailure={root.reportFormFailure} message={t.formForbidden} />;
  if (!usable)
    return (
      <FormUnusable
        onFailure={root.reportFormFailure}
        message={t.formUnsupported}
        why={formWhy(t.formWhy, checks.reason, format.number)}
        detail={`aguikit: interrupt ${root.interrupt.id} is shown without a form, as its responseSchema cannot be answered in one: ${checks.detail}.`}
      />
    );
  if (schema === undefined || uiSchema === undefined) return null;
  const hasRequired = Array.isArray(schema.required) && schema.required.some((name) => !(shape === 'approval' && name === 'approved'));

  const onSubmit = ({ formData }: IChangeEvent) => {
    setAttempted(true);
    setSummary((prev) => ({ text: '', n: prev.n }));
    if (shape !== 'approval') return root.resolve(formData);
    // Enter in a text field submits too: an approval is only ever given by its buttons.
    const approved = root.intent.current;
    root.intent.current = undefined;
    if (approved !== undefined) root.resolve({ ...(formData as object), approved });
  };

  return (
    <FormBoundary onFailure={root.reportFormFailure} message={t.formUnsupported} forbidden={t.formForbidden}>
      <FormWrapperContext.Provider value={wrapper}>
        <div
          {...rest}
          ref={(node) => {
            wrapper.current = node;
            if (typeof forwardedRef === 'function') forwardedRef(node);
            else if (forwardedRef) forwardedRef.current = node;
          }}
          className={className ? `agk-interrupt__form-wrap ${className}` : 'agk-interrupt__form-wrap'}
        >
          {hasRequired ? (
            <p className="agk-interrupt__required-note">
              <span aria-hidden="true">{t.requiredLegend}</span>
            </p>
          ) : null}
          <Form
            ref={root.form}
            id={root.ids.form}
            idPrefix={root.ids.fields}
            className="agk-interrupt__form"
            schema={schema}
            uiSchema={uiSchema}
            {...(sent === undefined ? {} : { initialFormData: sent })}
            validator={validatorFor(schema)}
            templates={templates}
            widgets={widgets}
            translateString={translateString}
            noHtml5Validate
            showErrorList={false}
            transformErrors={transform}
            disabled={root.state !== 'open'}
            {...(attempted ? { liveValidate: 'onChange' as const } : {})}
            onChange={({ errors }) => {
              if (attempted && errors.length === 0) setSummary((prev) => ({ text: '', n: prev.n }));
            }}
            onError={(errors) => {
              setAttempted(true);
              root.intent.current = undefined;
              const container = wrapper.current;
              // Only fields the reader sees are named and focused: not those of an option not chosen, nor `approved`.
              const shown = container ? errors.filter((e) => isShown(container, fieldsId, e)) : [];
              if (!rewording.current && container && shown[0]) focusField(container, fieldsId, shown[0]);
              const words = { listItem: t.listItem, fieldOfItem: t.fieldOfItem, number: format.number };
              const names = container
                ? [...new Set(shown.map((e) => fieldName(e, schema, container, fieldsId, words)).filter(Boolean))]
                : [];
              // An approval's `approved` is its buttons': an error of it says the agent does not take that decision.
              const decision = (e: RJSFValidationError) =>
                shape === 'approval' && errorPath(e).length === 1 && errorPath(e)[0] === 'approved';
              // Problems of the whole answer (at least one field filled in, say) name no field: they are said as they are.
              // A decision refused is said after the fields named, which would not say it.
              const text = names.length
                ? [
                    t.errorSummary(names.length, format.list(names), format.number(names.length)),
                    ...(errors.some(decision) ? [t.errors.decision] : []),
                  ].join(' ')
                : t.answerSummary([...new Set(errors.map((e) => (decision(e) ? t.errors.decision : (e.message ?? ''))))].join(' '));
              // The same problems in another language are not a new alert.
              const again = rewording.current ? 0 : 1;
              rewording.current = false;
              setSummary((prev) => ({ text, n: prev.n + again }));
            }}
            onSubmit={onSubmit}
          />
          {/* Inserted with its text (a new one per failed submit), which is how an alert is announced. */}
          {summary.text ? (
            <p key={summary.n} role="alert" className="agk-interrupt__form-summary">
              {summary.text}
            </p>
          ) : null}
        </div>
      </FormWrapperContext.Provider>
    </FormBoundary>
  );
});

type FormValidator = ReturnType<typeof customizeValidator>;
const validators = new Map<string, FormValidator>();

/**
 * The form's validator for the JSON Schema draft `schema` declares in
 * `$schema` (2020-12 and 2019-09 have ajv classes of their own; zod 4 writes
 * 2020-12 by default), draft-07 otherwise, as the resume's own check in
 * `@aguikit/core/schema` picks it. Inherited members are absent
 * (`ownProperties`): a required `toString` left empty is missing.
 */
function validatorFor(schema: object): FormValidator {
  const uri = (schema as { $schema?: unknown }).$schema;
  const draft = typeof uri !== 'string' ? '07' : uri.includes('2020-12') ? '2020-12' : uri.includes('2019-09') ? '2019-09' : '07';
  // Errors by their exact paths: a key holding a "." is one field, not two.
  const make = () =>
    withExactPaths(
      customizeValidator({
        AjvClass: draft === '2020-12' ? Ajv2020 : draft === '2019-09' ? Ajv2019 : Ajv,
        // The form is drawn only for a schema `schemaChecks` took, checked against its meta-schema there in linear time:
        // ajv's own check as it compiles compares each value of an enum with every other.
        ajvOptionsOverrides: { ownProperties: true, code: { regExp: linearRegExp }, validateSchema: false },
      }),
    );
  // rjsf keeps a schema it compiled under its $id, and checks the next schema of that $id with it: two interrupts
  // sharing an $id (one agent's schema, with other choices each time) would share the first one's checks.
  if (typeof (schema as { $id?: unknown }).$id === 'string') {
    const own = validatorsById.get(schema) ?? make();
    validatorsById.set(schema, own);
    return own;
  }
  const validator = validators.get(draft) ?? make();
  validators.set(draft, validator);
  return validator;
}
const validatorsById = new WeakMap<object, FormValidator>();

/**
 * Whether answers to `schema` can be checked at all: a schema its draft's
 * meta-schema refuses (a misspelt type), or of a draft ajv has not (draft-04),
 * compiles neither here nor in the resume's check, which then refuses every
 * answer, and so does one with a pattern RE2 cannot run (`linearRegExp`),
 * an asynchronous one (`$async`), one under a meta-schema's `$id`, or one
 * that applies itself to the value it checks without end (`endlessAt`). Such a
 * form asks for nothing: its question can only be closed. So does any form
 * on a page that forbids compiling code (`codeForbidden`): `'forbidden'`.
 */
function schemaChecks(schema: unknown): 'usable' | 'forbidden' | Unusable {
  if (typeof schema !== 'object' || schema === null) return 'usable';
  if (!patternsRun(schema))
    return { reason: 'pattern', detail: 'a `pattern` or `patternProperties` RE2 cannot run (linear-time matching)' };
  // The resume's check takes no answer it must wait for ($async), and compiles no schema under a meta-schema's $id.
  const { $async, $id } = schema as { $async?: unknown; $id?: unknown };
  if ($async === true) return { reason: 'invalid', detail: 'an asynchronous JSON Schema ($async) is not checked' };
  // Checking an answer would apply the schema to it again and again until the stack runs out: every Submit would fail.
  const endless = endlessAt(schema);
  if (endless !== undefined)
    return { reason: 'invalid', detail: `it applies itself to the same value without end, through the $ref at ${endless || 'its root'}` };
  try {
    const { ajv } = validatorFor(schema);
    if (typeof $id === 'string' && ajv.getSchema($id.replace(/#$/, '')) !== undefined)
      return { reason: 'invalid', detail: `its $id ${$id} is a meta-schema's` };
    // An enum's values are told apart in one pass (enumCopy, the copy the resume's check sees too), not by ajv's comparison of each with every other.
    const checked = enumCopy(schema);
    if (checked === undefined) return { reason: 'invalid', detail: 'an enum it holds cannot be read' };
    if (ajv.validateSchema(checked as object) === true) return 'usable';
    return { reason: 'invalid', detail: `its JSON Schema meta-schema refuses it (${ajv.errorsText(ajv.errors)})` };
  } catch (e) {
    return codeForbidden(e)
      ? 'forbidden'
      : { reason: 'invalid', detail: `it does not compile (${e instanceof Error ? e.message : String(e)})` };
  }
}
